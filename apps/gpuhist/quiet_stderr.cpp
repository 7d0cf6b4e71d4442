#include "quiet_stderr.hpp"

#include <ext/stdio_filebuf.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <iostream>

namespace gpuhist::cli {
namespace {

std::atomic<int> g_message_fd{-1};  // the saved stderr while silenced, else -1

// Points descriptor 2 at /dev/null; returns a copy of what it was (-1 on failure).
int silence() {
  std::fflush(stderr);
  const int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved < 0 || null < 0) {
    if (null >= 0) close(null);
    if (saved >= 0) close(saved);
    return -1;
  }
  dup2(null, STDERR_FILENO);
  close(null);
  return saved;
}

void restore(int saved) {
  if (saved < 0) return;
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
}

}  // namespace

QuietStderr::QuietStderr() {
  if (g_message_fd.load() < 0) saved_ = silence();
}

QuietStderr::~QuietStderr() { restore(saved_); }

SilencedStderr::SilencedStderr() {
  saved_ = silence();
  if (saved_ < 0) return;
  const int copy = fcntl(saved_, F_DUPFD_CLOEXEC, 3);
  if (copy >= 0) {
    // Unbuffered (size 1), as std::cerr is: each message is written at once.
    messages_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(copy, std::ios::out, 1);
    previous_ = std::cerr.rdbuf(messages_.get());
  }
  g_message_fd.store(saved_);
}

SilencedStderr::~SilencedStderr() {
  if (saved_ < 0) return;
  g_message_fd.store(-1);
  if (previous_ != nullptr) {
    std::cerr.flush();
    std::cerr.rdbuf(previous_);
  }
  messages_.reset();
  restore(saved_);
}

int message_fd() noexcept {
  const int fd = g_message_fd.load();
  return fd >= 0 ? fd : STDERR_FILENO;
}

}  // namespace gpuhist::cli
