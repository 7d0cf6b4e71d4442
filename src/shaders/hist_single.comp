#version 460
// gpu-single: one invocation walks every pixel, as a first naive port would.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
#include "params.glsl"
#include "binning.glsl"

layout(std430, set = 0, binding = 1) buffer Result { uint bins[]; };  // bins[bin * 4 + channel]

// One invocation walks the pixels from pc.first up to pc.pixelCount. Software
// drivers cap the iterations of a shader loop (Mesa llvmpipe stops after 65535),
// so there the host walks the image in several such dispatches, one after another.
void main() {
  for (uint p = pc.first; p < pc.pixelCount; ++p) {
    uvec4 b = pixelBins(p);
    for (uint c = 0u; c < 4u; ++c) {
      if (b[c] != NO_BIN) bins[b[c] * 4u + c] += 1u;
    }
  }
}
