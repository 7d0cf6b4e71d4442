// Work split by rows across threads: the CPU counter and the copies of
// frames into device-visible memory both spread an image's rows this way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>

#include "core/cores.hpp"
#include "core/worker_pool.hpp"

namespace gpuhist {

// Parts worth a thread each for `rows` rows: each gets at least `min_rows`
// rows, and there are no more parts than hardware threads.
[[nodiscard]] inline std::uint32_t row_parts(std::uint64_t rows, std::uint64_t min_rows) {
  const std::uint64_t by_size =
      std::max<std::uint64_t>(1, rows / std::max<std::uint64_t>(1, min_rows));
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(core_count(), by_size));
}

// Runs fn(part, y0, y1) for rows [y0, y1) of each of `parts` nearly equal
// parts of [0, rows), each on its own thread (kept between calls: see
// run_parts); returns when all are done, rethrowing a part's exception. The
// parts never wait for one another: where threads cannot be started, the
// calling thread runs the parts that have none.
template <typename F>
void for_row_parts(std::uint32_t rows, std::uint32_t parts, const F& fn) {
  if (parts <= 1) {
    fn(0U, 0U, rows);
    return;
  }
  run_parts(
      parts,
      [&](std::uint32_t t) {
        const auto y0 = static_cast<std::uint32_t>(std::uint64_t{rows} * t / parts);
        const auto y1 = static_cast<std::uint32_t>(std::uint64_t{rows} * (t + 1) / parts);
        fn(t, y0, y1);
      },
      /*apart=*/true);
}

}  // namespace gpuhist
