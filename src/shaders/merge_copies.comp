#version 460
// The end of a `gpu` run: adds the pc.chunkCount global copies that the
// workgroups merged into (binding 1) and writes the sums as the result
// (binding 2), leaving every copy zero for the next run: no counter needs
// clearing between runs.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"

layout(constant_id = 2) const uint BINS = 256u;

layout(std430, set = 0, binding = 1) buffer Copies { uint copies[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Result { uint bins[]; };

void main() {
  const uint words = BINS * 4u;
  uint i = gl_GlobalInvocationID.x;
  if (i >= words) return;
  uint sum = 0u;
  for (uint c = 0u; c < pc.chunkCount; ++c) {
    sum += copies[c * words + i];
    copies[c * words + i] = 0u;
  }
  bins[i] = sum;
}
