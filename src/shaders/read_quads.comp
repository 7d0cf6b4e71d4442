#version 460
// The benchmark's read yardstick: reads pc.pixelCount 16-byte words from
// binding 0 (a grid-stride loop over coalesced loads, as the counting kernels
// read pixels) and folds them into one value per invocation, written out only
// when it equals pc.stride: the reads cannot be optimised away, and nothing
// else is written. What a histogram kernel can approach at best.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Target { uvec4 target[]; };

void main() {
  const uint step = gl_NumWorkGroups.x * 256u;
  uvec4 a = uvec4(0u);
  uvec4 b = uvec4(0u);
  uint i = gl_GlobalInvocationID.x;
  // Two loads in flight per step, as the counting kernel has.
  for (; i + step < pc.pixelCount; i += 2u * step) {
    a ^= source[i];
    b ^= source[i + step];
  }
  if (i < pc.pixelCount) a ^= source[i];
  a ^= b;
  if (a.x == pc.stride && a.y == pc.stride && a.z == pc.stride && a.w == pc.stride) {
    target[gl_GlobalInvocationID.x] = a;
  }
}
