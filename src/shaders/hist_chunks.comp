#version 460
// gpu-chunks-*: one workgroup per chunk of pixels (a 256x1 row piece or a
// 16x16 tile), counted in workgroup-shared memory and written out as that
// chunk's own histogram. When bins x 4 do not fit in shared memory the chunk
// counts with atomics straight into its (zeroed) slot.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 10, local_size_y_id = 11) in;
#include "params.glsl"
#include "binning.glsl"

layout(constant_id = 4) const uint SHARED_WORDS = 1024u;  // BINS * 4, or 1 when not used
layout(constant_id = 5) const uint USE_SHARED = 1u;

layout(std430, set = 0, binding = 1) buffer Chunks { uint chunks[]; };  // per chunk: bins[bin * 4 + channel]

shared uint localBins[SHARED_WORDS];

void main() {
  const uint words = BINS * 4u;
  const uint groupSize = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  const uint lid = gl_LocalInvocationIndex;
  const uint slot = gl_WorkGroupID.x * words;

  if (USE_SHARED != 0u) {
    for (uint i = lid; i < words; i += groupSize) localBins[i] = 0u;
    // The whole chunk histogram must be zero before any invocation counts into it.
    barrier();
  }

  uint chunk = pc.chunkBase + gl_WorkGroupID.x;
  uint chunksAcross = (pc.width + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
  uint x = (chunk % chunksAcross) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  uint y = (chunk / chunksAcross) * gl_WorkGroupSize.y + gl_LocalInvocationID.y;
  if (x < pc.width && y * pc.width + x < pc.pixelCount) {
    uvec4 b = pixelBins(y * pc.width + x);
    for (uint c = 0u; c < 4u; ++c) {
      if (b[c] == NO_BIN) continue;
      if (USE_SHARED != 0u) {
        atomicAdd(localBins[b[c] * 4u + c], 1u);
      } else {
        atomicAdd(chunks[slot + b[c] * 4u + c], 1u);
      }
    }
  }

  if (USE_SHARED != 0u) {
    // Every count of the chunk must have landed before it is copied out.
    barrier();
    for (uint i = lid; i < words; i += groupSize) chunks[slot + i] = localBins[i];
  }
}
