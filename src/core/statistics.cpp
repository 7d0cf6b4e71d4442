#include "gpuhist/statistics.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <string>

namespace gpuhist {

namespace {

__extension__ using Wide = unsigned __int128;

// The shortest decimal that reads back as `p` (finite), in any locale: "7", "99.9",
// "0.000000000000000015".
std::string shortest_decimal(double p) {
  std::array<char, 400> text{};
  const auto written =
      std::to_chars(text.data(), text.data() + text.size(), p, std::chars_format::fixed);
  return {text.data(), written.ptr};
}

}  // namespace

std::uint64_t nearest_rank(std::uint64_t total, double p) {
  p = std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 100.0);
  // At most rank 1 for p < 10^-18: p% of any 64-bit total is below 0.19
  // (and -0.0, which the clamp keeps, is 0).
  if (!(p >= 1e-18)) return 1;
  // The smallest rank r with r >= p% of the total, in integers: p as the
  // shortest decimal that reads back as it (7, 99.9), r = ceil(D * total /
  // (100 * 10^k)) for its digits D and k decimals. In double, 7% of 100 came
  // to rank 8 (0.07 * 100 = 7.000000000000001). D < 10^19 (17 significant
  // digits), total < 2^64 and 100 * 10^k <= 10^37, all within 128 bits.
  Wide digits = 0;
  Wide scale = 100;
  bool after_point = false;
  for (const char c : shortest_decimal(p)) {
    if (c == '.') {
      after_point = true;
    } else {
      digits = digits * 10 + static_cast<unsigned>(c - '0');
      if (after_point) scale *= 10;
    }
  }
  const Wide rank = (digits * total + scale - 1) / scale;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(rank));
}

std::uint32_t percentile(std::span<const std::uint64_t> counts, double p) {
  const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  if (total == 0) return 0;
  const std::uint64_t rank = nearest_rank(total, p);
  std::uint64_t cumulative = 0;
  for (std::size_t bin = 0; bin < counts.size(); ++bin) {
    cumulative += counts[bin];
    if (cumulative >= rank) return static_cast<std::uint32_t>(bin);
  }
  return static_cast<std::uint32_t>(counts.size() - 1);
}

std::string percentile_name(double p) {
  std::string name = "p";
  name += shortest_decimal(p + 0.0);  // -0.0 named as 0
  return name;
}

ChannelStats statistics(std::span<const std::uint64_t> counts) {
  ChannelStats stats;
  long double sum = 0;
  for (std::size_t bin = 0; bin < counts.size(); ++bin) {
    if (counts[bin] == 0) continue;
    if (stats.count == 0) stats.min = static_cast<std::uint32_t>(bin);
    stats.max = static_cast<std::uint32_t>(bin);
    stats.count += counts[bin];
    sum += static_cast<long double>(counts[bin]) * static_cast<long double>(bin);
  }
  if (stats.count == 0) return stats;
  const long double n = static_cast<long double>(stats.count);
  const long double mean = sum / n;
  long double squares = 0;
  for (std::size_t bin = stats.min; bin <= stats.max; ++bin) {
    const long double d = static_cast<long double>(bin) - mean;
    squares += static_cast<long double>(counts[bin]) * d * d;
  }
  stats.mean = static_cast<double>(mean);
  stats.stddev = static_cast<double>(std::sqrt(squares / n));
  stats.median = percentile(counts, 50.0);
  stats.p1 = percentile(counts, 1.0);
  stats.p99 = percentile(counts, 99.0);
  stats.shadows = static_cast<double>(static_cast<long double>(counts.front()) / n);
  stats.highlights = static_cast<double>(static_cast<long double>(counts.back()) / n);
  return stats;
}

}  // namespace gpuhist
