// run_parts: every part runs exactly once, on kept threads or threads of its
// own, from several callers at once and from inside a part; a part's
// exception reaches the caller after every part has finished.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include <sched.h>

#include "core/cores.hpp"
#include "core/row_parts.hpp"
#include "core/worker_pool.hpp"
#include "support/without_threads.hpp"

namespace gpuhist {
namespace {

// The cores counted are those the thread may run on (taskset, cpusets, a
// pinned Dask worker), not every core of the machine.
TEST(Cores, AllowedCoresFollowTheAffinity) {
  cpu_set_t before;
  CPU_ZERO(&before);
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  // The thread's processors are given back however the test ends.
  struct Restore {
    cpu_set_t set;
    ~Restore() { (void)sched_setaffinity(0, sizeof set, &set); }
  } restore{before};
  EXPECT_EQ(allowed_cores(), static_cast<unsigned>(CPU_COUNT(&before)));
  EXPECT_EQ(core_count(), allowed_cores());  // as at its first call, with every processor
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &before)) cpus.push_back(cpu);
  }
  for (std::size_t n = 1; n <= std::min<std::size_t>(cpus.size(), 2); ++n) {
    cpu_set_t some;
    CPU_ZERO(&some);
    for (std::size_t i = 0; i < n; ++i) CPU_SET(cpus[i], &some);
    ASSERT_EQ(sched_setaffinity(0, sizeof some, &some), 0);
    EXPECT_EQ(allowed_cores(), n);
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(allowed_cores(), cpus.size());
}

TEST(RunParts, EveryPartRunsOnceAtEveryCount) {
  for (std::uint32_t parts = 0; parts <= 3 * std::thread::hardware_concurrency() + 2; ++parts) {
    std::vector<std::atomic<int>> runs(parts);
    for (int round = 0; round < 3; ++round) run_parts(parts, [&](std::uint32_t p) { ++runs[p]; });
    for (std::uint32_t p = 0; p < parts; ++p) EXPECT_EQ(runs[p].load(), 3) << parts << " parts";
  }
}

TEST(RunParts, RowPartsCoverEveryRowOnce) {
  std::vector<std::atomic<int>> rows(1001);
  for_row_parts(1001, 7, [&](std::uint32_t, std::uint32_t y0, std::uint32_t y1) {
    for (std::uint32_t y = y0; y < y1; ++y) ++rows[y];
  });
  for (const auto& r : rows) EXPECT_EQ(r.load(), 1);
}

// Where no thread can be started, rows are still every one covered once (on
// the calling thread), and parts that may wait for one another are refused
// with the thread's error rather than left undone.
TEST(RunParts, WithoutThreadsRowPartsRunOnTheCaller) {
  const std::optional<bool> passed = test::without_threads([] {
    std::vector<int> rows(1001);
    for_row_parts(1001, 7, [&](std::uint32_t, std::uint32_t y0, std::uint32_t y1) {
      for (std::uint32_t y = y0; y < y1; ++y) ++rows[y];
    });
    if (std::count(rows.begin(), rows.end(), 1) != 1001) return false;
    try {
      run_parts(3, [](std::uint32_t) {});
      return false;
    } catch (const std::system_error&) {
      return true;
    }
  });
  if (!passed) GTEST_SKIP() << "needs root, and a limit of processes that holds";
  EXPECT_TRUE(*passed);
}

TEST(RunParts, SeveralCallersAndNestedCalls) {
  std::atomic<long> total{0};
  std::vector<std::jthread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        run_parts(3, [&](std::uint32_t) { run_parts(2, [&](std::uint32_t) { ++total; }); });
      }
    });
  }
  callers.clear();  // joined
  EXPECT_EQ(total.load(), 4L * 200 * 3 * 2);
}

TEST(RunParts, APartsExceptionReachesTheCallerAfterEveryPartFinished) {
  for (const std::uint32_t thrower : {0U, 1U}) {
    std::atomic<int> finished{0};
    EXPECT_THROW(run_parts(2,
                           [&](std::uint32_t p) {
                             if (p == thrower) throw std::runtime_error("part failed");
                             std::this_thread::sleep_for(std::chrono::milliseconds(20));
                             ++finished;
                           }),
                 std::runtime_error);
    EXPECT_EQ(finished.load(), 1);
  }
  // The kept threads still work after a failure.
  std::atomic<int> runs{0};
  run_parts(2, [&](std::uint32_t) { ++runs; });
  EXPECT_EQ(runs.load(), 2);
}

}  // namespace
}  // namespace gpuhist
