// Statistics and the Histogram value type.
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/statistics.hpp"

namespace gpuhist {
namespace {

TEST(Statistics, KnownHistogram) {
  // Values 2 (x1), 4 (x2), 6 (x1): mean 4, population variance (4 + 0 + 0 + 4) / 4 = 2.
  const std::vector<std::uint64_t> counts = {0, 0, 1, 0, 2, 0, 1, 0};
  const ChannelStats s = statistics(counts);
  EXPECT_EQ(s.count, 4U);
  EXPECT_EQ(s.min, 2U);
  EXPECT_EQ(s.max, 6U);
  EXPECT_DOUBLE_EQ(s.mean, 4.0);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.0));
  EXPECT_EQ(s.median, 4U);  // rank ceil(0.5 * 4) = 2 falls in bin 4
  EXPECT_EQ(s.p1, 2U);
  EXPECT_EQ(s.p99, 6U);
}

TEST(Statistics, ClippedShadowsAndHighlights) {
  // 3 pixels in the lowest bin and 1 in the highest, of 8.
  const ChannelStats s = statistics(std::vector<std::uint64_t>{3, 2, 0, 2, 1});
  EXPECT_DOUBLE_EQ(s.shadows, 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(s.highlights, 1.0 / 8.0);
  const ChannelStats middle = statistics(std::vector<std::uint64_t>{0, 4, 0});
  EXPECT_EQ(middle.shadows, 0.0);
  EXPECT_EQ(middle.highlights, 0.0);
  // With one bin every pixel is in both.
  const ChannelStats one = statistics(std::vector<std::uint64_t>{6});
  EXPECT_EQ(one.shadows, 1.0);
  EXPECT_EQ(one.highlights, 1.0);
}

TEST(Statistics, NearestRankPercentiles) {
  std::vector<std::uint64_t> counts(100, 1);  // one value in each of bins 0..99
  EXPECT_EQ(percentile(counts, 0.0), 0U);
  EXPECT_EQ(percentile(counts, 1.0), 0U);    // rank 1
  EXPECT_EQ(percentile(counts, 50.0), 49U);  // rank 50
  EXPECT_EQ(percentile(counts, 50.5), 50U);  // rank 51
  EXPECT_EQ(percentile(counts, 100.0), 99U);
  EXPECT_EQ(percentile(counts, 250.0), 99U);  // clamped
  EXPECT_EQ(percentile(counts, -3.0), 0U);
  // Ranks in integers: 7% of 100 is rank 7 exactly, where 0.07 * 100 in
  // double is 7.000000000000001 (rank 8); the same for every whole percent.
  for (int p = 1; p <= 100; ++p) {
    EXPECT_EQ(percentile(counts, p), static_cast<std::uint32_t>(p - 1)) << p;
    EXPECT_EQ(nearest_rank(100, p), static_cast<std::uint64_t>(p)) << p;
  }
  // Decimals as written: 99.9% of 10000 is rank 9990, 0.1% of 1000 rank 1,
  // 12.345% of 200000 rank 24690.
  EXPECT_EQ(nearest_rank(10000, 99.9), 9990U);
  EXPECT_EQ(nearest_rank(1000, 0.1), 1U);
  EXPECT_EQ(nearest_rank(200000, 12.345), 24690U);
  EXPECT_EQ(nearest_rank(200001, 12.345), 24691U);  // 24690.12345: up
  // A 24-megapixel image, 7% of it zeros: p7 is 0.
  const std::vector<std::uint64_t> zeros_then_ones = {1680000, 24000000 - 1680000};
  EXPECT_EQ(percentile(zeros_then_ones, 7.0), 0U);
  EXPECT_EQ(nearest_rank(std::numeric_limits<std::uint64_t>::max(), 100.0),
            std::numeric_limits<std::uint64_t>::max());
  // -0.0 is 0; a percentage of more than 17 decimals is taken as written
  // (1.5e-17 % of 6e18 is 0.9: rank 1), and a vanishing one is rank 1.
  EXPECT_EQ(nearest_rank(100, -0.0), 1U);
  EXPECT_EQ(percentile(counts, -0.0), 0U);
  EXPECT_EQ(nearest_rank(6000000000000000000ULL, 1.5e-17), 1U);
  EXPECT_EQ(nearest_rank(6000000000000000000ULL, 2e-17), 2U);  // 1.2
  EXPECT_EQ(nearest_rank(std::numeric_limits<std::uint64_t>::max(), 5e-324), 1U);
  EXPECT_EQ(percentile_name(-0.0), "p0");
  EXPECT_EQ(percentile_name(99.9), "p99.9");
  EXPECT_EQ(percentile_name(7), "p7");
}

// Percentages are read and named the same in every locale (a German one
// writes 7,5 with printf): ranks and names in a locale of decimal commas.
TEST(Statistics, PercentilesDoNotDependOnTheLocale) {
  const char* previous = std::setlocale(LC_NUMERIC, nullptr);
  const std::string kept = previous != nullptr ? previous : "C";
  // German, compiled for the test from the locales package's sources.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gpuhist-locale-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ASSERT_EQ(std::system(
                ("localedef -i de_DE -f UTF-8 '" + (dir / "de_DE.UTF-8").string() + "' 2>/dev/null")
                    .c_str()),
            0)
      << "localedef (the locales package)";
  ::setenv("LOCPATH", dir.c_str(), 1);
  ASSERT_NE(std::setlocale(LC_NUMERIC, "de_DE.UTF-8"), nullptr);
  std::array<char, 16> printed{};
  std::snprintf(printed.data(), printed.size(), "%.1f", 7.5);
  ASSERT_STREQ(printed.data(), "7,5");  // the locale writes a decimal comma
  const std::vector<std::uint64_t> counts(100, 1);
  EXPECT_EQ(nearest_rank(100, 7.5), 8U);
  EXPECT_EQ(percentile(counts, 7.5), 7U);
  EXPECT_EQ(percentile_name(7.5), "p7.5");
  std::setlocale(LC_NUMERIC, kept.c_str());
  ::unsetenv("LOCPATH");
  std::filesystem::remove_all(dir);
}

TEST(Statistics, EmptyHistogram) {
  const std::vector<std::uint64_t> counts(16, 0);
  const ChannelStats s = statistics(counts);
  EXPECT_EQ(s.count, 0U);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.shadows, 0.0);
  EXPECT_EQ(s.highlights, 0.0);
  EXPECT_EQ(percentile(counts, 50.0), 0U);
}

TEST(Statistics, SingleBin) {
  const ChannelStats s = statistics(std::vector<std::uint64_t>{0, 0, 0, 10'000'000'000ULL});
  EXPECT_EQ(s.count, 10'000'000'000ULL);  // beyond 32 bits
  EXPECT_EQ(s.min, 3U);
  EXPECT_EQ(s.median, 3U);
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
}

TEST(HistogramValue, ChannelsOfGreyAndColour) {
  const Histogram grey(16, false);
  EXPECT_FALSE(grey.has(Channel::Red));
  EXPECT_TRUE(grey.has(Channel::Luminance));
  EXPECT_TRUE(grey.counts(Channel::Red).empty());
  EXPECT_EQ(grey.channels().size(), 1U);
  const Histogram colour(16, true);
  EXPECT_EQ(colour.channels().size(), 4U);
  EXPECT_EQ(colour.counts(Channel::Blue).size(), 16U);
  // A value no Channel has (a loop one past the last): no channel, no crash.
  for (const int c : {4, 9, 255}) {
    EXPECT_TRUE(colour.counts(static_cast<Channel>(c)).empty());
    EXPECT_EQ(colour.total(static_cast<Channel>(c)), 0U);
    EXPECT_FALSE(colour.has(static_cast<Channel>(c)));
  }
  EXPECT_THROW(Histogram(0, true), Error);
  EXPECT_THROW(Histogram(65537, true), Error);
}

TEST(HistogramValue, AddingMergesChannels) {
  Histogram total;
  Histogram grey(4, false);
  grey.counts(Channel::Luminance)[1] = 5;
  Histogram colour(4, true);
  colour.counts(Channel::Red)[3] = 2;
  colour.counts(Channel::Luminance)[1] = 1;
  total += grey;
  EXPECT_FALSE(total.colour());
  total += colour;
  EXPECT_TRUE(total.colour());
  EXPECT_EQ(total.counts(Channel::Luminance)[1], 6U);
  EXPECT_EQ(total.counts(Channel::Red)[3], 2U);
  EXPECT_EQ(total.total(Channel::Green), 0U);
  EXPECT_THROW(total += Histogram(8, false), Error);
}

// Merging is exact or refused: counts that would add up past 2^64 - 1 in a
// channel (a bin, or the channel's total) throw and leave the sum as it was.
TEST(HistogramValue, AddingPastSixtyFourBitsIsRefused) {
  constexpr std::uint64_t kMost = ~std::uint64_t{0};
  Histogram big(2, false);
  big.counts(Channel::Luminance)[0] = kMost;
  Histogram one(2, false);
  one.counts(Channel::Luminance)[0] = 1;
  Histogram other_bin(2, false);
  other_bin.counts(Channel::Luminance)[1] = 1;
  for (const Histogram* add : {&one, &other_bin}) {
    Histogram sum = big;
    EXPECT_THROW(sum += *add, Error);
    EXPECT_EQ(sum, big);
  }
  // Into a grey sum, a colour histogram whose luminance overflows changes nothing.
  Histogram colour(2, true);
  colour.counts(Channel::Red)[0] = 3;
  colour.counts(Channel::Luminance)[1] = 1;
  Histogram sum = big;
  EXPECT_THROW(sum += colour, Error);
  EXPECT_EQ(sum, big);
  EXPECT_FALSE(sum.colour());
  // Up to 2^64 - 1 exactly is fine.
  Histogram most(2, false);
  most.counts(Channel::Luminance)[0] = kMost - 1;
  most += one;
  EXPECT_EQ(most.counts(Channel::Luminance)[0], kMost);
}

}  // namespace
}  // namespace gpuhist
