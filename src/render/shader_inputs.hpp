// What the drawing shaders read: a histogram as bins * 4 32-bit counters
// (bin * 4 + channel, counts saturated to 32 bits, absent channels zero), and
// the scale mode's number (SCALE_* in src/shaders/draw_rule.glsl).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gpuhist/histogram.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist::render {

inline std::uint32_t shader_scale_mode(ScaleMode mode) {
  return mode == ScaleMode::Clip ? 0U : mode == ScaleMode::Max ? 1U : 2U;
}

inline void write_gpu_counts(const Histogram& histogram, std::uint32_t* out) {
  const std::size_t bins = histogram.bins();
  std::memset(out, 0, bins * 16);
  for (Channel channel : histogram.channels()) {
    const auto c = static_cast<std::size_t>(channel);
    const auto source = histogram.counts(channel);
    for (std::size_t b = 0; b < bins; ++b) {
      out[b * 4 + c] = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(source[b], std::numeric_limits<std::uint32_t>::max()));
    }
  }
}

}  // namespace gpuhist::render
