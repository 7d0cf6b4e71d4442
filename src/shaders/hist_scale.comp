#version 460
// The scale pass: each channel's largest count and total (saturated to 32
// bits), so that a histogram on the GPU can be drawn without reading it back.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "draw_params.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Counts { uint bins[]; };  // bins[bin * 4 + channel]
layout(std430, set = 0, binding = 1) writeonly buffer Scale { uvec4 maxCount; uvec4 sum; } scale;

shared uvec4 sharedMax[256];
shared uvec4 sharedSum[256];

uvec4 addSaturated(uvec4 a, uvec4 b) {
  uvec4 s = a + b;
  return mix(s, uvec4(0xFFFFFFFFu), lessThan(s, a));
}

void main() {
  uint lid = gl_LocalInvocationIndex;
  uvec4 m = uvec4(0u), s = uvec4(0u);
  for (uint bin = lid; bin < dp.bins; bin += 256u) {
    uvec4 c = uvec4(bins[bin * 4u], bins[bin * 4u + 1u], bins[bin * 4u + 2u], bins[bin * 4u + 3u]);
    m = max(m, c);
    s = addSaturated(s, c);
  }
  sharedMax[lid] = m;
  sharedSum[lid] = s;
  for (uint width = 128u; width > 0u; width >>= 1) {
    // Each level reads what the level before it wrote.
    barrier();
    if (lid < width) {
      sharedMax[lid] = max(sharedMax[lid], sharedMax[lid + width]);
      sharedSum[lid] = addSaturated(sharedSum[lid], sharedSum[lid + width]);
    }
  }
  if (lid == 0u) {
    scale.maxCount = sharedMax[0];
    scale.sum = sharedSum[0];
  }
}
