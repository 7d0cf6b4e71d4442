// Silences writes to the process's stderr for a scope. Some decoders (libpng)
// print their own messages before OpenImageIO reports the same failure; the
// CLI's contract is one line per error, which it prints itself afterwards.
#pragma once

namespace gpuhist::cli {

class QuietStderr {
 public:
  QuietStderr();
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;
  QuietStderr(QuietStderr&&) = delete;
  QuietStderr& operator=(QuietStderr&&) = delete;
  ~QuietStderr();

 private:
  int saved_ = -1;
};

}  // namespace gpuhist::cli
