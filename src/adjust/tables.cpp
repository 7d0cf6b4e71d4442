// Tables of one channel from its counts (one bin per sample value).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>
#include <string>

#include "adjust/adjust_backend.hpp"
#include "gpuhist/adjust.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/statistics.hpp"

namespace gpuhist {
namespace {

__extension__ using Wide = unsigned __int128;  // products of two 64-bit counts

std::uint64_t checked_total(std::span<const std::uint64_t> counts) {
  if (counts.empty() || counts.size() > 65536) {
    throw Error(ErrorKind::InvalidArgument,
                "a table needs 1 to 65536 bins, not " + std::to_string(counts.size()));
  }
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  if (total == 0) throw Error(ErrorKind::InvalidArgument, "cannot adjust by an empty histogram");
  return total;
}

// round(n / d) with halves rounded up, for d > 0.
std::uint16_t rounded(Wide n, Wide d) { return static_cast<std::uint16_t>((2 * n + d) / (2 * d)); }

}  // namespace

std::vector<std::uint16_t> equalize_table(std::span<const std::uint64_t> counts) {
  const std::uint64_t total = checked_total(counts);
  const auto max = static_cast<std::uint32_t>(counts.size() - 1);
  std::vector<std::uint16_t> table(counts.size(), 0);
  std::size_t first = 0;
  while (counts[first] == 0) ++first;
  if (counts[first] == total) {
    // One value: kept, as OpenCV keeps it. The table is the identity, so that
    // the table of a one-colour image's luminance keeps its colour too.
    for (std::size_t v = 0; v < table.size(); ++v) table[v] = static_cast<std::uint16_t>(v);
    return table;
  }
  const std::uint64_t spread = total - counts[first];
  std::uint64_t above_first = 0;
  for (std::size_t v = first + 1; v < counts.size(); ++v) {
    above_first += counts[v];
    table[v] = rounded(Wide{above_first} * max, spread);
  }
  return table;
}

namespace adjust {

void check_clip_percentages(double low, double high) {
  if (!(low >= 0.0 && low <= 50.0 && high >= 0.0 && high <= 50.0)) {
    throw Error(ErrorKind::InvalidArgument, "clipped percentages must be within 0..50");
  }
}

}  // namespace adjust

std::vector<std::uint16_t> stretch_table(std::span<const std::uint64_t> counts, double low,
                                         double high) {
  (void)checked_total(counts);
  adjust::check_clip_percentages(low, high);
  const auto max = static_cast<std::uint32_t>(counts.size() - 1);
  std::vector<std::uint16_t> table(counts.size());
  const std::uint32_t lo = percentile(counts, low);
  const std::uint32_t hi = percentile(counts, 100.0 - high);
  for (std::uint32_t v = 0; v <= max; ++v) {
    if (hi <= lo) {
      table[v] = static_cast<std::uint16_t>(v);
    } else if (v <= lo) {
      table[v] = 0;
    } else if (v >= hi) {
      table[v] = static_cast<std::uint16_t>(max);
    } else {
      table[v] = rounded(Wide{v - lo} * max, hi - lo);
    }
  }
  return table;
}

std::vector<std::uint16_t> match_table(std::span<const std::uint64_t> counts,
                                       std::span<const std::uint64_t> reference) {
  const std::uint64_t total = checked_total(counts);
  const std::uint64_t reference_total = checked_total(reference);
  if (counts.size() != reference.size()) {
    throw Error(ErrorKind::InvalidArgument, "cannot match histograms of " +
                                                std::to_string(counts.size()) + " and " +
                                                std::to_string(reference.size()) + " bins");
  }
  std::vector<std::uint16_t> table(counts.size());
  // Both cumulative shares only grow, so one walk over the reference serves all v:
  // c(v) / total <= r(w) / reference_total  <=>  c(v) * reference_total <= r(w) * total.
  std::uint64_t below = 0, reference_below = reference[0];
  std::size_t w = 0;
  for (std::size_t v = 0; v < counts.size(); ++v) {
    below += counts[v];
    while (w + 1 < reference.size() &&
           Wide{reference_below} * total < Wide{below} * reference_total) {
      reference_below += reference[++w];
    }
    table[v] = static_cast<std::uint16_t>(w);
  }
  return table;
}

std::int32_t otsu_threshold(std::span<const std::uint64_t> counts) {
  const std::uint64_t total = checked_total(counts);
  // OpenCV's getThreshVal_Otsu_8u, step for step, in doubles.
  const double scale = 1.0 / static_cast<double>(total);
  double mu = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    mu += static_cast<double>(i) * static_cast<double>(counts[i]);
  }
  mu *= scale;
  double mu1 = 0.0, q1 = 0.0, max_sigma = 0.0;
  std::int32_t max_val = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double p_i = static_cast<double>(counts[i]) * scale;
    mu1 *= q1;
    q1 += p_i;
    const double q2 = 1.0 - q1;
    constexpr auto kEpsilon = static_cast<double>(FLT_EPSILON);  // as OpenCV compares
    if (std::min(q1, q2) < kEpsilon || std::max(q1, q2) > 1.0 - kEpsilon) continue;
    mu1 = (mu1 + static_cast<double>(i) * p_i) / q1;
    const double mu2 = (mu - q1 * mu1) / q2;
    const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
    if (sigma > max_sigma) {
      max_sigma = sigma;
      max_val = static_cast<std::int32_t>(i);
    }
  }
  return max_val;
}

std::int32_t triangle_threshold(std::span<const std::uint64_t> counts) {
  (void)checked_total(counts);
  // OpenCV's getThreshVal_Triangle_8u, step for step: the line from the peak to
  // the far end of the histogram, and the bin farthest below it.
  std::vector<std::uint64_t> h(counts.begin(), counts.end());
  const auto n = static_cast<std::int32_t>(h.size());
  const auto at = [&](std::int32_t i) { return h[static_cast<std::size_t>(i)]; };
  std::int32_t left = 0, right = 0, peak = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (at(i) > 0) {
      left = i;
      break;
    }
  }
  if (left > 0) --left;
  for (std::int32_t i = n - 1; i > 0; --i) {
    if (at(i) > 0) {
      right = i;
      break;
    }
  }
  if (right < n - 1) ++right;
  std::uint64_t highest = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    if (at(i) > highest) {
      highest = at(i);
      peak = i;
    }
  }
  const bool flipped = peak - left < right - peak;
  if (flipped) {
    std::reverse(h.begin(), h.end());
    left = n - 1 - right;
    peak = n - 1 - peak;
  }
  std::int32_t threshold = left;
  const auto a = static_cast<double>(highest);
  const auto b = static_cast<double>(left - peak);
  double distance = 0.0;
  for (std::int32_t i = left + 1; i <= peak; ++i) {
    const double d = a * i + b * static_cast<double>(at(i));
    if (d > distance) {
      distance = d;
      threshold = i;
    }
  }
  --threshold;
  return flipped ? n - 1 - threshold : threshold;
}

std::vector<std::uint16_t> threshold_table(std::uint32_t size, std::int32_t threshold) {
  if (size == 0 || size > 65536) {
    throw Error(ErrorKind::InvalidArgument, "a table needs 1 to 65536 values");
  }
  std::vector<std::uint16_t> table(size);
  for (std::uint32_t v = 0; v < size; ++v) {
    table[v] = static_cast<std::int64_t>(v) > threshold ? static_cast<std::uint16_t>(size - 1) : 0;
  }
  return table;
}

}  // namespace gpuhist
