#include "quiet_stderr.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace gpuhist::cli {

QuietStderr::QuietStderr() {
  std::fflush(stderr);
  saved_ = dup(STDERR_FILENO);
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved_ < 0 || null < 0) {
    if (null >= 0) close(null);
    return;
  }
  dup2(null, STDERR_FILENO);
  close(null);
}

QuietStderr::~QuietStderr() {
  if (saved_ < 0) return;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
}

}  // namespace gpuhist::cli
