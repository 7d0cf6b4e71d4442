// Silencing what decoders print on the process's stderr. Some decoders
// (libpng) print their own messages before OpenImageIO reports the same
// failure; the CLI's contract is one line per error, which it prints itself.
#pragma once

#include <memory>
#include <streambuf>

namespace gpuhist::cli {

// Silences writes to stderr for a scope, on one thread; does nothing while a
// SilencedStderr is in force (stderr is already silent then).
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

// For a run that decodes on several threads: while alive, the process's
// stderr (descriptor 2) is /dev/null, so any thread's decoder may print, and
// the CLI's own messages (std::cerr, the progress bar) go to the real stderr
// through message_fd(). One at a time, made and ended on the main thread.
class SilencedStderr {
 public:
  SilencedStderr();
  SilencedStderr(const SilencedStderr&) = delete;
  SilencedStderr& operator=(const SilencedStderr&) = delete;
  SilencedStderr(SilencedStderr&&) = delete;
  SilencedStderr& operator=(SilencedStderr&&) = delete;
  ~SilencedStderr();

 private:
  int saved_ = -1;
  std::unique_ptr<std::streambuf> messages_;
  std::streambuf* previous_ = nullptr;
};

// Where the CLI's own messages go: the real stderr while a SilencedStderr is
// in force, descriptor 2 otherwise.
[[nodiscard]] int message_fd() noexcept;

}  // namespace gpuhist::cli
