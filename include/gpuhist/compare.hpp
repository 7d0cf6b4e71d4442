// How alike two histograms are: the comparison metrics of OpenCV's compareHist
// and the earth mover's distance, computed on frequencies (each histogram's
// counts divided by its total), so that images of different sizes compare by
// the shape of their histograms. The counts are exact on every strategy and
// device, so are these values.
#pragma once

#include <cstdint>
#include <span>

namespace gpuhist {

// p and q are the frequencies of the first and the second histogram, b a bin.
struct Comparison {
  // Pearson correlation of the bins, -1..1; 1 for equal shapes (and when either
  // histogram is the same in every bin, as OpenCV's HISTCMP_CORREL says).
  double correlation = 0.0;
  // sum (p - q)^2 / p over the bins where p > 0 (HISTCMP_CHISQR); 0 when equal.
  double chi_square = 0.0;
  // sum min(p, q), 0..1: the share of the pixels the two have in common; 1 when equal.
  double intersection = 0.0;
  // sqrt(1 - sum sqrt(p q)), 0..1: the Bhattacharyya distance as OpenCV defines
  // it (HISTCMP_BHATTACHARYYA), which is the Hellinger distance; 0 when equal.
  double bhattacharyya = 0.0;
  // Kullback-Leibler divergence of q from p, sum p ln(p / q) over the bins where
  // p > 0, with an empty bin of q taken as 1e-10 (HISTCMP_KL_DIV); 0 when equal.
  double kl_divergence = 0.0;
  // Earth mover's distance in bins: the least mass times distance (in bins) to
  // move to turn p into q, which for one dimension is sum |P(b) - Q(b)| of the
  // cumulative frequencies; 0 when equal.
  double emd = 0.0;
};

// Compares one channel of two histograms. Throws Error(InvalidArgument) when
// their numbers of bins differ or either holds no pixel.
[[nodiscard]] Comparison compare(std::span<const std::uint64_t> first,
                                 std::span<const std::uint64_t> second);

}  // namespace gpuhist
