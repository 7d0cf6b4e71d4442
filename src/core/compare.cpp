#include "gpuhist/compare.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

using Real = long double;

// One histogram's counts, their total, and the counts divided by it.
struct Frequencies {
  Real total = 0;
  std::vector<Real> p;

  explicit Frequencies(std::span<const std::uint64_t> c) : p(c.size()) {
    const std::uint64_t sum = std::accumulate(c.begin(), c.end(), std::uint64_t{0});
    if (sum == 0) throw Error(ErrorKind::InvalidArgument, "cannot compare an empty histogram");
    total = static_cast<Real>(sum);
    for (std::size_t b = 0; b < c.size(); ++b) p[b] = static_cast<Real>(c[b]) / total;
  }
};

Real correlation(const std::vector<Real>& p, const std::vector<Real>& q) {
  const auto n = static_cast<Real>(p.size());
  const Real mean_p = std::accumulate(p.begin(), p.end(), Real{0}) / n;
  const Real mean_q = std::accumulate(q.begin(), q.end(), Real{0}) / n;
  Real pq = 0, pp = 0, qq = 0;
  for (std::size_t b = 0; b < p.size(); ++b) {
    const Real dp = p[b] - mean_p;
    const Real dq = q[b] - mean_q;
    pq += dp * dq;
    pp += dp * dp;
    qq += dq * dq;
  }
  // A histogram equal in every bin has no variance; OpenCV calls that 1.
  const Real variance = pp * qq;
  return variance > 0 ? pq / std::sqrt(variance) : Real{1};
}

}  // namespace

Comparison compare(std::span<const std::uint64_t> first, std::span<const std::uint64_t> second) {
  if (first.size() != second.size()) {
    throw Error(ErrorKind::InvalidArgument, "cannot compare histograms of " +
                                                std::to_string(first.size()) + " and " +
                                                std::to_string(second.size()) + " bins");
  }
  const Frequencies a(first);
  const Frequencies b(second);
  const std::vector<Real>& p = a.p;
  const std::vector<Real>& q = b.p;
  constexpr Real kEmptyBin = 1e-10L;  // OpenCV's stand-in for q = 0 in the KL divergence
  Real chi = 0, common = 0, hellinger = 0, kl = 0, moved = 0;
  std::uint64_t below_a = 0, below_b = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (first[i] != 0) {
      chi += (p[i] - q[i]) * (p[i] - q[i]) / p[i];
      kl += p[i] * std::log(p[i] / (second[i] != 0 ? q[i] : kEmptyBin));
    }
    // Intersection and EMD take each count times the other total, exact while the
    // products fit a long double's 64-bit mantissa: equal shapes give 1 and 0.
    common +=
        std::min(static_cast<Real>(first[i]) * b.total, static_cast<Real>(second[i]) * a.total);
    below_a += first[i];
    below_b += second[i];
    moved += std::abs(static_cast<Real>(below_a) * b.total - static_cast<Real>(below_b) * a.total);
    // 1 - sum sqrt(p q) = sum (sqrt p - sqrt q)^2 / 2: never below 0, and 0 for equal shapes.
    const Real d = std::sqrt(p[i]) - std::sqrt(q[i]);
    hellinger += d * d / 2;
  }
  const Real both = a.total * b.total;
  Comparison c;
  c.correlation = static_cast<double>(correlation(p, q));
  c.chi_square = static_cast<double>(chi);
  c.intersection = static_cast<double>(common / both);
  c.bhattacharyya = static_cast<double>(std::sqrt(hellinger));
  c.kl_divergence = static_cast<double>(kl);
  c.emd = static_cast<double>(moved / both);
  return c;
}

}  // namespace gpuhist
