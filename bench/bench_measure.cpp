#include "bench_measure.hpp"

#include "device_probes.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {
namespace {

// Profiles with enough warm-up runs to cover about 25 ms of GPU time.
count::Profile timed_profile(count::GpuCounter& counter, const ImageView& image,
                             const HistogramOptions& options, Strategy strategy,
                             std::uint32_t repetitions, std::uint32_t min_warmup,
                             std::vector<double>& timed) {
  const count::Profile probe = counter.profile(image, options, strategy, ChunkShape::Row256x1, 1);
  const double once = std::max(probe.gpu_ms.front(), 1e-3);
  const auto warmup = static_cast<std::uint32_t>(
      std::clamp(std::ceil(25.0 / once), static_cast<double>(min_warmup), 200.0));
  count::Profile p =
      counter.profile(image, options, strategy, ChunkShape::Row256x1, warmup + repetitions);
  timed.assign(p.gpu_ms.begin() + warmup, p.gpu_ms.end());
  return p;
}

}  // namespace

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

std::string compare(const Histogram& actual, const Histogram& expected) {
  if (actual == expected) return "exact";
  for (Channel channel : expected.channels()) {
    const auto a = actual.counts(channel);
    const auto e = expected.counts(channel);
    for (std::size_t bin = 0; bin < e.size(); ++bin) {
      if (a[bin] != e[bin]) {
        return "MISMATCH " + std::string(to_string(channel)) + "[" + std::to_string(bin) + "]";
      }
    }
  }
  return "MISMATCH";
}

Timing measure(count::GpuCounter& counter, const ImageView& image, const HistogramOptions& options,
               Strategy strategy, std::uint32_t runs, std::uint32_t min_warmup,
               const Histogram& expected) {
  const bool hardware = counter.device_info().hardware();
  warm_up(counter.device(), hardware ? 300.0 : 0.0);
  Timing t{std::numeric_limits<double>::infinity(), "exact"};
  for (int round = 0; round < (hardware && runs > 1 ? 3 : 1); ++round) {
    std::vector<double> timed;
    const count::Profile p =
        timed_profile(counter, image, options, strategy, runs, min_warmup, timed);
    t.ms = std::min(t.ms, vk::median(timed));
    if (t.check == "exact") t.check = compare(p.histogram, expected);
  }
  return t;
}

}  // namespace gpuhist::bench
