// How many threads the machine runs at once, asked once per process: each
// std::thread::hardware_concurrency() call reads a sysfs file (several
// microseconds; a fifth of a small Python call's time was spent there).
#pragma once

#include <algorithm>
#include <thread>

namespace gpuhist {

[[nodiscard]] inline unsigned core_count() noexcept {
  static const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  return cores;
}

}  // namespace gpuhist
