#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace gpuhist::cli {

Progress::Progress(std::size_t total, bool enabled)
    : total_(total), active_(enabled && total > 1 && isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { clear(); }

void Progress::update(std::size_t done, std::string_view current) {
  if (!active_) return;
  constexpr std::size_t kWidth = 30;
  const std::size_t filled = total_ == 0 ? kWidth : done * kWidth / total_;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::string name(current.substr(current.size() > 40 ? current.size() - 40 : 0));
  std::fprintf(stderr, "\r\033[K[%s] %zu/%zu %s", bar.c_str(), done, total_, name.c_str());
  std::fflush(stderr);
}

void Progress::clear() {
  if (!active_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace gpuhist::cli
