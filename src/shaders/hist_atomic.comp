#version 460
// gpu-atomic: one invocation per pixel, atomicAdd straight into the global histogram.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 10) in;
#include "params.glsl"
#include "binning.glsl"

layout(std430, set = 0, binding = 1) buffer Result { uint bins[]; };  // bins[bin * 4 + channel]

void main() {
  // A grid-stride loop keeps it correct when the grid is capped by maxComputeWorkGroupCount.
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint p = gl_GlobalInvocationID.x; p < pc.pixelCount; p += step) {
    uvec4 b = pixelBins(p);
    for (uint c = 0u; c < 4u; ++c) {
      if (b[c] != NO_BIN) atomicAdd(bins[b[c] * 4u + c], 1u);
    }
  }
}
