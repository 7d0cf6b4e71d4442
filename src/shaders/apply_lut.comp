#version 460
// Applies lookup tables to integer samples (src/adjust): each invocation makes
// one 32-bit word of the output, 4 samples of 8 bits or 2 of 16.
//  TARGET 0: every sample through its channel's table (grey samples through
//            the luminance table), alpha copied: the output has the input's format.
//  TARGET 1: every pixel's luminance bin, with one bin per value (BINS = M + 1),
//            through the luminance table: a grey output.
// Mirrors apply_lut_cpu (src/adjust/apply_cpu.cpp), and is tested for equal bytes.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "binning.glsl"

// src/adjust/shaders.hpp mirrors it (ApplyParams).
layout(push_constant) uniform ApplyParams {
  uint pixelCount;  // pixels in this batch of rows
} pc;

layout(constant_id = 24) const uint TARGET = 0u;

layout(std430, set = 0, binding = 1) writeonly buffer Output { uint outWords[]; };
// Four tables of BINS 16-bit values, two per word, by channel: red, green,
// blue, luminance.
layout(std430, set = 0, binding = 2) readonly buffer Tables { uint tables[]; };

uint lookUp(uint channel, uint v) {
  uint i = channel * BINS + v;
  return bitfieldExtract(tables[i >> 1u], int((i & 1u) * 16u), 16);
}

// Output sample s (of pc.pixelCount pixels).
uint outputSample(uint s) {
  if (TARGET == 1u) {
    if (CHANNELS == 1u) return lookUp(3u, channelBin(loadSample(s)));
    uint i = s * CHANNELS;
    return lookUp(3u, lumaBin(loadSample(i), loadSample(i + 1u), loadSample(i + 2u)));
  }
  if (CHANNELS == 1u) return lookUp(3u, loadSample(s));
  uint channel = s % CHANNELS;
  uint v = loadSample(s);
  return channel == 3u ? v : lookUp(channel, v);
}

void main() {
  const uint perWord = SAMPLE_BITS == 8u ? 4u : 2u;
  const uint bits = SAMPLE_BITS;
  const uint samples = pc.pixelCount * (TARGET == 1u ? 1u : CHANNELS);
  const uint words = (samples + perWord - 1u) / perWord;
  const uint step = gl_NumWorkGroups.x * 256u;
  for (uint w = gl_GlobalInvocationID.x; w < words; w += step) {
    uint word = 0u;
    for (uint k = 0u; k < perWord; ++k) {
      uint s = w * perWord + k;
      if (s < samples) word |= outputSample(s) << (k * bits);
    }
    outWords[w] = word;
  }
}
