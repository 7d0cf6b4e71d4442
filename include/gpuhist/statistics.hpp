// Statistics derived from one channel's histogram, in bin units: a value of b
// means bin b (for 256 bins of 8-bit input, bin b holds sample value b).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace gpuhist {

struct ChannelStats {
  std::uint64_t count = 0;   // pixels counted
  std::uint32_t min = 0;     // lowest non-empty bin (0 when empty)
  std::uint32_t max = 0;     // highest non-empty bin (0 when empty)
  double mean = 0.0;         // mean bin index
  double stddev = 0.0;       // population standard deviation of the bin index
  std::uint32_t median = 0;  // percentile(50)
  std::uint32_t p1 = 0;      // percentile(1)
  std::uint32_t p99 = 0;     // percentile(99)
  // Fractions of the pixels counted in the lowest bin (clipped shadows) and in
  // the highest bin (clipped highlights): 0..1, 0 when empty. With one bin per
  // sample value (256 bins of 8-bit input) these are the pixels at 0 and at 255.
  double shadows = 0.0;
  double highlights = 0.0;
};

// Nearest-rank percentile: the lowest bin b whose cumulative count reaches
// ceil(p / 100 * count) (at least 1). p is clamped to [0, 100]; 0 for an empty histogram.
[[nodiscard]] std::uint32_t percentile(std::span<const std::uint64_t> counts, double p);

// The rank percentile() looks for among `total` counts: ceil(p / 100 * total),
// at least 1, with p clamped to [0, 100] (NaN as 0).
[[nodiscard]] std::uint64_t nearest_rank(std::uint64_t total, double p);

// The name reports give percentile p: "p5", "p99.9", "p0.05" (the fewest
// decimals that read back as the same number).
[[nodiscard]] std::string percentile_name(double p);

// Count, min, max, mean, standard deviation, median, p1, p99 and the clipped
// fractions of one channel. Like percentile(), it expects counts that add up
// to at most 2^64 - 1, as every Histogram's do (adding and reading histograms
// refuse more).
[[nodiscard]] ChannelStats statistics(std::span<const std::uint64_t> counts);

}  // namespace gpuhist
