#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "quiet_stderr.hpp"

namespace gpuhist::cli {
namespace {

void write_all(const char* data, std::size_t size) {
  std::fflush(stderr);
  while (size > 0) {
    const ssize_t written = ::write(message_fd(), data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

// A terminal that cannot move its cursor (TERM=dumb: Emacs's shell, some CI logs) gets no bar.
bool dumb_terminal() {
  const char* term = std::getenv("TERM");
  return term != nullptr && std::string_view(term) == "dumb";
}

}  // namespace

Progress::Progress(std::size_t total, bool enabled)
    : total_(total),
      active_(enabled && total > 1 && isatty(message_fd()) != 0 && !dumb_terminal()) {}

Progress::~Progress() { clear(); }

void Progress::update(std::size_t done, std::string_view current) {
  if (!active_) return;
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total_ == 0 ? kWidth : done * kWidth / total_;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::string name(current.substr(current.size() > 40 ? current.size() - 40 : 0));
  char line[160];
  const int length = std::snprintf(line, sizeof line, "\r\033[K[%s] %zu/%zu %s", bar.c_str(), done,
                                   total_, name.c_str());
  write_all(line, length < 0 ? 0 : std::min(static_cast<std::size_t>(length), sizeof line - 1));
}

void Progress::clear() {
  if (!active_) return;
  write_all("\r\033[K", 4);
}

}  // namespace gpuhist::cli
