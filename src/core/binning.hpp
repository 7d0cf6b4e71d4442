// The exact binning rules (README.md, "What is counted"), shared by the CPU strategies. The GPU
// shaders (src/shaders/binning.glsl) implement the same rules and are tested
// for equality against these.
#pragma once

#include <algorithm>
#include <cstdint>

#include "gpuhist/histogram_options.hpp"

namespace gpuhist::binning {

// Integer luminance weights, summing to 10000: the real weights times 10^4.
struct IntWeights {
  std::uint32_t r, g, b;
};
inline constexpr std::uint32_t kWeightSum = 10000;
[[nodiscard]] constexpr IntWeights int_weights(LumaWeights luma) noexcept {
  return luma == LumaWeights::Rec601 ? IntWeights{2990, 5870, 1140} : IntWeights{2126, 7152, 722};
}

// Float luminance weights, used for float samples.
struct FloatWeights {
  float r, g, b;
};
[[nodiscard]] constexpr FloatWeights float_weights(LumaWeights luma) noexcept {
  return luma == LumaWeights::Rec601 ? FloatWeights{0.299f, 0.587f, 0.114f}
                                     : FloatWeights{0.2126f, 0.7152f, 0.0722f};
}

// bin = min(floor(v * N / M), N - 1) for an integer sample v in 0..M, exactly.
// v * N <= 65535 * 65536 < 2^32, so 32 bits suffice (the shaders rely on that too).
[[nodiscard]] constexpr std::uint32_t channel_bin(std::uint32_t v, std::uint32_t max_value,
                                                  std::uint32_t bins) noexcept {
  return std::min(v * bins / max_value, bins - 1);
}

// Weighted sum s = wr*r + wg*g + wb*b of integer samples (at most 10000 * 65535 < 2^32).
[[nodiscard]] constexpr std::uint32_t luma_sum(IntWeights w, std::uint32_t r, std::uint32_t g,
                                               std::uint32_t b) noexcept {
  return w.r * r + w.g * g + w.b * b;
}

// bin = min(floor(s * N / (10000 * M)), N - 1), in 64 bits.
[[nodiscard]] constexpr std::uint32_t luma_bin(std::uint32_t sum, std::uint32_t max_value,
                                               std::uint32_t bins) noexcept {
  const std::uint64_t scaled = std::uint64_t{sum} * bins / (std::uint64_t{kWeightSum} * max_value);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(scaled, bins - 1));
}

// Float samples are clamped to [0, 1]; NaN counts as 0, +inf as 1.
[[nodiscard]] inline float clamp_unit(float v) noexcept {
  return v > 0.0f ? std::min(v, 1.0f) : 0.0f;
}

// bin = min(floor(c * N), N - 1) for c in [0, 1], the product rounded to float
// once (no fused operations), as the shaders evaluate it.
[[nodiscard]] inline std::uint32_t unit_bin(float c, std::uint32_t bins) noexcept {
  const float x = c * static_cast<float>(bins);
  return std::min(static_cast<std::uint32_t>(x), bins - 1);
}

// L = clamp((wr*r + wg*g) + wb*b) on clamped samples, each operation rounded
// to float in that order.
[[nodiscard]] inline float float_luma(FloatWeights w, float r, float g, float b) noexcept {
  const float rg = w.r * r + w.g * g;
  return clamp_unit(rg + w.b * b);
}

}  // namespace gpuhist::binning
