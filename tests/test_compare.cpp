// Histogram comparison metrics against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpuhist/compare.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

using Counts = std::vector<std::uint64_t>;

void expect_equal_shapes(const Comparison& c) {
  EXPECT_DOUBLE_EQ(c.correlation, 1.0);
  EXPECT_EQ(c.chi_square, 0.0);
  EXPECT_EQ(c.intersection, 1.0);
  EXPECT_EQ(c.bhattacharyya, 0.0);
  EXPECT_EQ(c.kl_divergence, 0.0);
  EXPECT_EQ(c.emd, 0.0);
}

TEST(Compare, AHistogramWithItself) {
  const Counts counts = {7, 0, 3, 1'000'003, 12, 0, 0, 5};
  expect_equal_shapes(compare(counts, counts));
}

TEST(Compare, SameShapeAnyTotal) {
  // An image tiled three times has the same frequencies: every metric says equal.
  const Counts counts = {7, 0, 3, 1'000'003, 12, 0, 0, 5};
  Counts tiled;
  for (std::uint64_t c : counts) tiled.push_back(3 * c);
  expect_equal_shapes(compare(counts, tiled));
  expect_equal_shapes(compare(tiled, counts));
}

TEST(Compare, TwoBins) {
  // p = (1/2, 1/2), q = (1/4, 3/4).
  const Comparison c = compare(Counts{2, 2}, Counts{1, 3});
  EXPECT_DOUBLE_EQ(c.correlation, 1.0);  // two bins are always perfectly (anti)correlated
  EXPECT_DOUBLE_EQ(c.chi_square, 0.25);  // (1/4)^2 / (1/2) twice
  EXPECT_DOUBLE_EQ(c.intersection, 0.75);
  const double hellinger2 =
      (std::pow(std::sqrt(0.5) - 0.5, 2) + std::pow(std::sqrt(0.5) - std::sqrt(0.75), 2)) / 2;
  EXPECT_DOUBLE_EQ(c.bhattacharyya, std::sqrt(hellinger2));
  // OpenCV's form, 1 - sum sqrt(p q), loses digits to cancellation in doubles.
  EXPECT_NEAR(c.bhattacharyya, std::sqrt(1 - (std::sqrt(0.125) + std::sqrt(0.375))), 1e-14);
  EXPECT_DOUBLE_EQ(c.kl_divergence, 0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0));
  EXPECT_DOUBLE_EQ(c.emd, 0.25);  // a quarter of the pixels move one bin
}

TEST(Compare, OppositeEnds) {
  // All pixels in bin 0 against all in bin 3.
  const Comparison c = compare(Counts{5, 0, 0, 0}, Counts{0, 0, 0, 9});
  EXPECT_DOUBLE_EQ(c.correlation, -1.0 / 3.0);
  EXPECT_DOUBLE_EQ(c.chi_square, 1.0);
  EXPECT_EQ(c.intersection, 0.0);
  EXPECT_DOUBLE_EQ(c.bhattacharyya, 1.0);
  EXPECT_DOUBLE_EQ(c.kl_divergence, std::log(1e10));  // an empty bin of q counts as 1e-10
  EXPECT_DOUBLE_EQ(c.emd, 3.0);                       // everything moves three bins
}

TEST(Compare, EarthMoversDistanceIsSymmetricAndAsymmetricMetricsAreNot) {
  const Counts a = {4, 1, 0, 0, 3, 2};
  const Counts b = {0, 2, 2, 5, 1, 0};
  const Comparison ab = compare(a, b);
  const Comparison ba = compare(b, a);
  EXPECT_DOUBLE_EQ(ab.emd, ba.emd);
  EXPECT_DOUBLE_EQ(ab.intersection, ba.intersection);
  EXPECT_DOUBLE_EQ(ab.bhattacharyya, ba.bhattacharyya);
  EXPECT_DOUBLE_EQ(ab.correlation, ba.correlation);
  EXPECT_NE(ab.chi_square, ba.chi_square);
  EXPECT_NE(ab.kl_divergence, ba.kl_divergence);
  // p = (.4 .1 0 0 .3 .2), q = (0 .2 .2 .5 .1 0): cumulative differences
  // .4 .3 .1 .4 .2 0 move 1.4 of the mass one bin each.
  EXPECT_NEAR(ab.emd, 1.4, 1e-15);
}

TEST(Compare, FlatHistogramsCorrelateAsOpenCvSays) {
  const Comparison c = compare(Counts{3, 3, 3}, Counts{1, 5, 2});
  EXPECT_EQ(c.correlation, 1.0);  // no variance: OpenCV's HISTCMP_CORREL gives 1
}

TEST(Compare, RefusesEmptyHistogramsAndDifferentBins) {
  for (const auto& [a, b] :
       {std::pair{Counts{0, 0}, Counts{1, 2}}, std::pair{Counts{1, 2}, Counts{0, 0}},
        std::pair{Counts{1, 2}, Counts{1, 2, 3}}}) {
    try {
      (void)compare(a, b);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    }
  }
}

}  // namespace
}  // namespace gpuhist
