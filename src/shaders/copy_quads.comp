#version 460
// The benchmark's yardstick: copies pc.pixelCount 16-byte words from binding 0
// to binding 1, a grid-stride loop over coalesced loads and stores, so that
// the counting kernels can be set against what shaders can move.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Target { uvec4 target[]; };

void main() {
  const uint step = gl_NumWorkGroups.x * 256u;
  for (uint i = gl_GlobalInvocationID.x; i < pc.pixelCount; i += step) target[i] = source[i];
}
