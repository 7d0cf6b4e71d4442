#version 460
// The overlay: the frame scaled to cover the target (nearest sample, through
// column and row tables made on the host), with the RGB histogram panel at
// bottom left and the luminance panel at bottom right. Panel pixels of the
// background colour are averaged with the frame, as compose_overlay() does,
// so the GPU picture equals the CPU one byte for byte.
#extension GL_GOOGLE_include_directive : require
#include "overlay_params.glsl"
#include "draw_rule.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Counts { uint bins[]; };  // bins[bin * 4 + channel]
layout(std430, set = 0, binding = 1) readonly buffer Scale { uvec4 maxCount; uvec4 sum; } scale;
layout(std430, set = 0, binding = 2) readonly buffer Frame { uint frameWords[]; };
// map[x] (x < width): byte offset of column x's first sample; map[width + y]: of row y.
layout(std430, set = 0, binding = 3) readonly buffer Map { uint map[]; };

layout(location = 0) out vec4 colour;

uint frameByte(uint address) {
  return (frameWords[address >> 2] >> ((address & 3u) * 8u)) & 0xFFu;
}

// The 8-bit value of the sample at `address`: a 16-bit one (little-endian,
// at an even address) rounded to the nearest, round(v * 255 / 65535).
uint frameSample(uint address) {
  if (op.sampleStep == 1u) return frameByte(address);
  uint v = (frameWords[address >> 2] >> ((address & 2u) * 8u)) & 0xFFFFu;
  return (v + 128u) / 257u;
}

// The panel's colour at (x, y) inside it, or the frame's blended with the background.
uvec3 panelColour(uint x, uint y, uint channels, uvec3 frame) {
  // The column's largest count of each channel.
  uvec2 range = columnBins(x, op.panelWidth, op.bins);
  uvec4 count = uvec4(0u);
  for (uint b = range.x; b < range.y; ++b) {
    count = max(count, uvec4(bins[b * 4u], bins[b * 4u + 1u], bins[b * 4u + 2u], bins[b * 4u + 3u]));
  }
  uint a = 2u * (op.panelHeight - y) - 1u;
  uint mask = 0u;
  for (uint c = 0u; c < 4u; ++c) {
    if ((channels & (1u << c)) != 0u &&
        covers(op.scaleMode, count[c], scale.maxCount[c], scale.sum[c], a, op.panelHeight, op.bins)) {
      mask |= 1u << c;
    }
  }
  uint rgb = paletteColour(mask, op.background);
  uvec3 p = uvec3((rgb >> 16) & 0xFFu, (rgb >> 8) & 0xFFu, rgb & 0xFFu);
  return rgb == (op.background & 0xFFFFFFu) ? (frame + p) / 2u : p;
}

void main() {
  uint x = uint(gl_FragCoord.x);
  uint y = uint(gl_FragCoord.y);
  uint address = map[op.width + y] + map[x];
  uvec3 rgb = uvec3(frameSample(address), frameSample(address + op.sampleStep),
                    frameSample(address + 2u * op.sampleStep));
  if (y >= op.panelY && y - op.panelY < op.panelHeight) {
    if (x >= op.rightX && x - op.rightX < op.panelWidth) {
      rgb = panelColour(x - op.rightX, y - op.panelY, op.rightChannels, rgb);
    } else if (x >= op.leftX && x - op.leftX < op.panelWidth) {
      rgb = panelColour(x - op.leftX, y - op.panelY, op.leftChannels, rgb);
    }
  }
  colour = vec4(vec3(rgb) / 255.0, 1.0);
}
