#version 460
// Draws a histogram: x picks a bin, each drawn channel whose bar reaches this
// row sets its bit, and the 4-bit mask picks the colour (additive primaries,
// luminance white, the background for none).
#extension GL_GOOGLE_include_directive : require
#include "draw_params.glsl"
#include "draw_rule.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Counts { uint bins[]; };  // bins[bin * 4 + channel]
layout(std430, set = 0, binding = 1) readonly buffer Scale { uvec4 maxCount; uvec4 sum; } scale;

layout(location = 0) out vec4 colour;

void main() {
  // Fragment centres are at pixel + 0.5: truncation gives the pixel exactly.
  uint x = uint(gl_FragCoord.x);
  uint y = uint(gl_FragCoord.y);
  // The column's largest count of each channel.
  uvec2 range = columnBins(x, dp.width, dp.bins);
  uvec4 count = uvec4(0u);
  for (uint b = range.x; b < range.y; ++b) {
    count = max(count, uvec4(bins[b * 4u], bins[b * 4u + 1u], bins[b * 4u + 2u], bins[b * 4u + 3u]));
  }
  uint a = 2u * (dp.height - y) - 1u;
  uint mask = 0u;
  for (uint c = 0u; c < 4u; ++c) {
    if ((dp.channels & (1u << c)) != 0u &&
        covers(dp.scaleMode, count[c], scale.maxCount[c], scale.sum[c], a, dp.height, dp.bins)) {
      mask |= 1u << c;
    }
  }
  uint rgb = paletteColour(mask, dp.background);
  colour = vec4(float((rgb >> 16) & 0xFFu), float((rgb >> 8) & 0xFFu), float(rgb & 0xFFu), 255.0) / 255.0;
}
