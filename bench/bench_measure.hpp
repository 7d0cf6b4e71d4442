// How the benchmark takes a measurement: wall clocks, GPU timestamps after
// the clocks are warmed, and the comparison with the expected counts.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "count/gpu_counter.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"

namespace gpuhist::bench {

using Clock = std::chrono::steady_clock;

// The wall time of f(), in milliseconds.
template <typename F>
double wall_ms(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Now, UTC, ISO 8601.
[[nodiscard]] std::string now_utc();

// "exact", or "MISMATCH" and the first differing channel and bin.
[[nodiscard]] std::string compare(const Histogram& actual, const Histogram& expected);

struct Timing {
  double ms = 0;
  std::string check;  // "exact", or the first difference of any round
};

// The GPU time of a strategy: preparing the image left the GPU idle, and its
// clocks fall within a second of idling and rise again over the next, so on a
// hardware GPU the measurement is warmed up, taken three times, and the
// fastest median is kept.
[[nodiscard]] Timing measure(count::GpuCounter& counter, const ImageView& image,
                             const HistogramOptions& options, Strategy strategy, std::uint32_t runs,
                             std::uint32_t min_warmup, const Histogram& expected);

}  // namespace gpuhist::bench
