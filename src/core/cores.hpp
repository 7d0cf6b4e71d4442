// How many threads this process may run at once, asked once per process: the
// processors it is allowed to run on (sched_getaffinity, as `nproc` counts:
// taskset, cgroup cpusets, a container's --cpuset-cpus, a Dask worker pinned
// to a core), else every processor the system has. Cached: each
// std::thread::hardware_concurrency() call reads a sysfs file (several
// microseconds; a fifth of a small Python call's time was spent there).
#pragma once

#include <algorithm>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace gpuhist {

// The processors the calling thread may run on now (at least 1).
[[nodiscard]] inline unsigned allowed_cores() noexcept {
#if defined(__linux__)
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    const int count = CPU_COUNT(&allowed);
    if (count > 0) return static_cast<unsigned>(count);
  }
#endif
  return std::max(1U, std::thread::hardware_concurrency());
}

// allowed_cores() as it was at the first call.
[[nodiscard]] inline unsigned core_count() noexcept {
  static const unsigned cores = allowed_cores();
  return cores;
}

}  // namespace gpuhist
