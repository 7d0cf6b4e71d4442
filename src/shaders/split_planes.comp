#version 460
// Before a `gpu` count in planes (ranges of bins of colour images): writes
// every pixel's R, G, B and luminance bins (at most 65536 bins) as four
// planes of 16-bit bins (binding 1), so that each range's workgroups read only
// their channel's plane, a quarter of the pixels' bytes (RGBA16), instead of
// the whole image. Plane c starts at quad c * pc.stride (16-byte quads of
// eight bins); word i of a plane holds the bins of pixels 2i and 2i + 1.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"
#include "binning.glsl"

layout(std430, set = 0, binding = 1) writeonly buffer Planes { uint planes[]; };

void main() {
  const uint pairs = (pc.pixelCount + 1u) / 2u;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  const uint words = pc.stride * 4u;
  for (uint i = gl_GlobalInvocationID.x; i < pairs; i += stride) {
    const uvec4 b0 = pixelBins(2u * i);
    const uvec4 b1 = 2u * i + 1u < pc.pixelCount ? pixelBins(2u * i + 1u) : uvec4(0u);
    for (uint c = 0u; c < 4u; ++c) planes[c * words + i] = b0[c] | (b1[c] << 16);
  }
}
