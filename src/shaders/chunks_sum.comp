#version 460
// gpu-chunks-sum: adds the histograms of every chunk in the wave to the result,
// one counter per invocation (one workgroup for 64 bins x 4 channels, more for
// more bins). With chunkCount = 1 it adds one chunk: the end of a reduction.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"

layout(constant_id = 2) const uint BINS = 256u;

layout(std430, set = 0, binding = 1) readonly buffer Chunks { uint chunks[]; };
layout(std430, set = 0, binding = 2) buffer Result { uint bins[]; };

void main() {
  const uint words = BINS * 4u;
  uint i = gl_GlobalInvocationID.x;
  if (i >= words) return;
  uint sum = 0u;
  for (uint c = 0u; c < pc.chunkCount; ++c) sum += chunks[c * words + i];
  bins[i] += sum;
}
