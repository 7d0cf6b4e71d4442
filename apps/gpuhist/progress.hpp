// A one-line progress bar on stderr, drawn only when stderr is a terminal.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuhist::cli {

class Progress {
 public:
  // Shows nothing unless `enabled`, stderr is a terminal and total > 1.
  Progress(std::size_t total, bool enabled);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  Progress(Progress&&) = delete;
  Progress& operator=(Progress&&) = delete;
  ~Progress();

  // Redraws the bar for item `done` of the total, naming the current item.
  void update(std::size_t done, std::string_view current);
  // Erases the bar (before other output is written to the terminal).
  void clear();

 private:
  std::size_t total_;
  bool active_;
};

}  // namespace gpuhist::cli
