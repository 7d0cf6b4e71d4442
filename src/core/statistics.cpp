#include "gpuhist/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>

namespace gpuhist {

namespace {

__extension__ using Wide = unsigned __int128;

}  // namespace

std::uint64_t nearest_rank(std::uint64_t total, double p) {
  p = std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 100.0);
  // The smallest rank r with r >= p% of the total, at least 1, in integers:
  // p as the shortest decimal that reads back as it (7, 99.9), r = ceil(D *
  // total / (100 * 10^k)) for its digits D and k decimals. In double, 7% of
  // 100 came to rank 8 (0.07 * 100 = 7.000000000000001). D < 10^19 and total
  // < 2^64, so the product fits 128 bits.
  constexpr int kMostDecimals = 17;
  std::array<char, 48> text{};
  for (int decimals = 0; decimals <= kMostDecimals; ++decimals) {
    std::snprintf(text.data(), text.size(), "%.*f", decimals, p);
    if (std::strtod(text.data(), nullptr) == p) break;
  }
  Wide digits = 0;
  Wide scale = 100;
  bool after_point = false;
  for (const char* c = text.data(); *c != '\0'; ++c) {
    if (*c == '.') {
      after_point = true;
    } else {
      digits = digits * 10 + static_cast<unsigned>(*c - '0');
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
  std::array<char, 48> text{};
  for (int decimals = 0; decimals <= 20; ++decimals) {
    std::snprintf(text.data(), text.size(), "%.*f", decimals, p);
    if (std::stod(text.data()) == p) break;
  }
  return std::string("p") + text.data();
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
