// The drawing rule shared by the CPU renderer and, in GLSL, the GPU renderer
// (src/shaders/draw_rule.glsl): integers only, so both give identical pixels.
//
// Column x shows bin (2x + 1) * N / (2W) where there are no more bins than
// columns; with more, it shows the bins [xN / W, (x + 1)N / W) as the largest
// of their counts, so that no bin goes undrawn (a spike of clipped pixels at
// bin 0 or N - 1 above all). Row y (0 at the top) is the row r =
// H - 1 - y from the bottom, whose centre is at height (2r + 1) / (2H). A bar
// of height h covers it when (2r + 1) / (2H) < h, which for h = count / D is
// (2r + 1) * D < 2H * count: products below 2^64 for H, N <= 16384, 65536.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "gpuhist/render.hpp"

namespace gpuhist::render {

// Per-channel totals the scale needs, saturated to 32 bits.
struct ChannelScale {
  std::uint32_t max = 0;  // largest count
  std::uint32_t sum = 0;  // pixels counted
};

[[nodiscard]] constexpr std::uint32_t column_bin(std::uint32_t x, std::uint32_t width,
                                                 std::uint32_t bins) noexcept {
  return static_cast<std::uint32_t>((std::uint64_t{2 * x + 1} * bins) / (2ULL * width));
}

// The bins column x shows, [first, end): one where bins <= width, else every
// bin whose start falls in the column (x * bins < 2^31 within the limits).
struct ColumnBins {
  std::uint32_t first = 0;
  std::uint32_t end = 0;
};
[[nodiscard]] constexpr ColumnBins column_bins(std::uint32_t x, std::uint32_t width,
                                               std::uint32_t bins) noexcept {
  if (bins <= width) {
    const std::uint32_t bin = column_bin(x, width, bins);
    return {bin, bin + 1};
  }
  return {x * bins / width, (x + 1) * bins / width};
}

// log2(v + 1) in 16.16 fixed point: the position of the highest bit, plus the
// bits below it as a linear fraction (Mitchell's approximation).
[[nodiscard]] constexpr std::uint32_t fixed_log2(std::uint32_t count) noexcept {
  const std::uint32_t v = std::min(count, 0xFFFFFFFEU) + 1;
  const auto msb = static_cast<std::uint32_t>(31 - std::countl_zero(v));
  const std::uint32_t rest = v - (1U << msb);
  const std::uint32_t frac = msb > 16 ? rest >> (msb - 16) : rest << (16 - msb);
  return (msb << 16) | frac;
}

// Whether a bar of `count` covers the row whose centre is at a / (2 * height).
[[nodiscard]] constexpr bool covers(ScaleMode mode, std::uint32_t count, ChannelScale scale,
                                    std::uint32_t a, std::uint32_t height,
                                    std::uint32_t bins) noexcept {
  if (count == 0) return false;
  const std::uint64_t two_h = 2ULL * height;
  switch (mode) {
    case ScaleMode::Max:
      return std::uint64_t{a} * scale.max < two_h * count;
    case ScaleMode::Clip:
      // max(1 / max, 0.2 N / P): covered under either scale.
      return std::uint64_t{a} * scale.max < two_h * count ||
             std::uint64_t{a} * 5 * scale.sum < two_h * bins * count;
    case ScaleMode::Log:
      return std::uint64_t{a} * fixed_log2(scale.max) < two_h * fixed_log2(count);
  }
  return false;
}

}  // namespace gpuhist::render
