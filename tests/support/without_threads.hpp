// Runs a check in a child process that can start no thread: as the user
// nobody (65534), with a limit of one process (RLIMIT_NPROC), as a locked-down
// service or a container may run gpuhist. Needs root to change user.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <optional>
#include <thread>

namespace gpuhist::test {

// The check's result, or nullopt where it cannot be run so (not root, or the
// limit lets a thread start after all).
inline std::optional<bool> without_threads(const std::function<bool()>& check) {
  if (::geteuid() != 0) return std::nullopt;
  const pid_t child = ::fork();
  if (child < 0) return std::nullopt;
  if (child == 0) {
    const rlimit one{1, 1};
    if (::setgid(65534) != 0 || ::setuid(65534) != 0 || ::setrlimit(RLIMIT_NPROC, &one) != 0) {
      ::_exit(77);
    }
    try {
      std::thread([] {}).join();
      ::_exit(77);  // a thread started: the limit does not hold here
    } catch (...) {
    }
    bool passed = false;
    try {
      passed = check();
    } catch (...) {
    }
    ::_exit(passed ? 0 : 1);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) == 77) {
    return WIFEXITED(status) && WEXITSTATUS(status) == 77 ? std::nullopt
                                                          : std::optional<bool>(false);
  }
  return WEXITSTATUS(status) == 0;
}

}  // namespace gpuhist::test
