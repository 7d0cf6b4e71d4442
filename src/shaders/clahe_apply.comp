#version 460
// CLAHE's last step (src/adjust): each sample blended bilinearly from the
// tables of its pixel's four nearest tiles, in the float operations OpenCV's
// CLAHE_Interpolation_Body makes, each rounded alone (`precise`, no fused
// multiply-add), then rounded to even and clamped. Each invocation makes one
// 32-bit word of the output (same format as the input), alpha copied.
// Mirrors blend_values (src/adjust/clahe_plan.hpp), but rounds with roundEven;
// tested for equal bytes.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "binning.glsl"

// src/adjust/shaders.hpp mirrors it (ClaheParams).
layout(push_constant) uniform ClaheParams {
  uint pixelCount;   // pixels in this batch of rows
  uint width;        // pixels per row
  uint firstRow;     // the batch's first row in the image
  uint rowData;      // offset in `plan` of the rows' words
  uint tableData;    // offset in `plan` of the tables (16-bit values, two per word)
  uint tilesX;       // tiles across
  uint lutChannels;  // tables per tile: 3 or 1
} pc;

layout(std430, set = 0, binding = 1) writeonly buffer Output { uint outWords[]; };
// Per column then per row: first tile, second tile, their weights (float bits);
// then the tables, [tile][table][BINS].
layout(std430, set = 0, binding = 2) readonly buffer Plan { uint plan[]; };

float tableValue(uint tile, uint k, uint v) {
  uint i = (tile * pc.lutChannels + k) * BINS + v;
  return float(bitfieldExtract(plan[pc.tableData + (i >> 1u)], int((i & 1u) * 16u), 16));
}

uint blend(uint x, uint y, uint k, uint v) {
  uint c = 4u * x;
  uint r = pc.rowData + 4u * y;
  uint t1 = plan[r] * pc.tilesX;
  uint t2 = plan[r + 1u] * pc.tilesX;
  float xa1 = uintBitsToFloat(plan[c + 2u]);
  float xa = uintBitsToFloat(plan[c + 3u]);
  precise float top = tableValue(t1 + plan[c], k, v) * xa1 + tableValue(t1 + plan[c + 1u], k, v) * xa;
  precise float bottom =
      tableValue(t2 + plan[c], k, v) * xa1 + tableValue(t2 + plan[c + 1u], k, v) * xa;
  precise float res = top * uintBitsToFloat(plan[r + 2u]) + bottom * uintBitsToFloat(plan[r + 3u]);
  return uint(clamp(roundEven(res), 0.0, float(BINS - 1u)));
}

void main() {
  const uint perWord = SAMPLE_BITS == 8u ? 4u : 2u;
  const uint samples = pc.pixelCount * CHANNELS;
  const uint words = (samples + perWord - 1u) / perWord;
  const uint step = gl_NumWorkGroups.x * 256u;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += step) {
    uint word = 0u;
    for (uint k = 0u; k < perWord; ++k) {
      uint s = w * perWord + k;
      if (s >= samples) break;
      uint p = s / CHANNELS;
      uint channel = s % CHANNELS;
      uint v = loadSample(s);
      uint value = channel == 3u ? v
                                 : blend(p % pc.width, pc.firstRow + p / pc.width,
                                         pc.lutChannels == 1u ? 0u : channel, v);
      word |= value << (k * SAMPLE_BITS);
    }
    outWords[w] = word;
  }
}
