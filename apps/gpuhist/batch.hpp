// Many files in one run: each failure is printed as it happens, as one line
// naming its file; the other files are still processed, and the most serious
// failure decides the exit status.
#pragma once

#include <filesystem>
#include <functional>

namespace gpuhist::cli {

class BatchStatus {
 public:
  // Keeps the more serious of the status so far and `status`. From the most
  // serious: 70 (internal), 3 (device), 2 (usage), 4 (output), 1 (input), 0.
  void add(int status);
  [[nodiscard]] int status() const noexcept { return status_; }

  // Runs `work` for `file`. A gpuhist::Error is printed and counts with its
  // kind's status; any other exception (out of memory, a decoder's own
  // exceptions) is printed naming the file and counts as an input error.
  // Returns false when the run must stop: the device failed, or an argument
  // that is the same for every file is bad.
  bool run(const std::filesystem::path& file, const std::function<void()>& work);

 private:
  int status_ = 0;
};

}  // namespace gpuhist::cli
