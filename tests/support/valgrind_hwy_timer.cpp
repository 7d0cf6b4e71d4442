// Preloaded under valgrind only (tests/memcheck.sh), where valgrind cannot run
// the processor's code that libhwy executes as it is loaded: libhwy's static
// initialiser measures its timer's resolution with `rdtscp`, which valgrind
// 3.19 does not decode on some processors (AMD family 26), so any process that
// loads libhwy (through libjxl, which FFmpeg and OpenImageIO load) dies of
// SIGILL before main. This definition takes the place of that one function;
// libhwy's timers serve its own benchmarks, which nothing here uses. Every
// other instruction of every library still runs under memcheck.
#include <cstdint>

namespace hwy::platform {
std::uint64_t TimerResolution() { return 1; }
}  // namespace hwy::platform
