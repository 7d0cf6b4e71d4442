#version 460
// gpu: persistent workgroups stride over the whole image; each keeps COPIES
// private histograms in shared memory (invocation i counts into copy i % COPIES,
// so a flat image does not pile every atomic onto one address), then adds its
// totals to the global histogram once. COPIES = 0 counts straight into global
// memory, for bin counts whose histogram does not fit in shared memory.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 10) in;
#include "params.glsl"
#include "binning.glsl"

layout(constant_id = 4) const uint SHARED_WORDS = 1024u;  // COPIES * BINS * 4, or 1
layout(constant_id = 6) const uint COPIES = 1u;

layout(std430, set = 0, binding = 1) buffer Result { uint bins[]; };  // bins[bin * 4 + channel]

shared uint localBins[SHARED_WORDS];

void main() {
  const uint words = BINS * 4u;
  const uint lid = gl_LocalInvocationIndex;
  const uint groupSize = gl_WorkGroupSize.x;

  if (COPIES > 0u) {
    for (uint i = lid; i < SHARED_WORDS; i += groupSize) localBins[i] = 0u;
    // Private histograms must be zero before anyone counts into them.
    barrier();
  }

  const uint base = (COPIES > 0u ? lid % COPIES : 0u) * words;
  const uint step = gl_NumWorkGroups.x * groupSize;
  for (uint p = gl_WorkGroupID.x * groupSize + lid; p < pc.pixelCount; p += step) {
    uvec4 b = pixelBins(p);
    for (uint c = 0u; c < 4u; ++c) {
      if (b[c] == NO_BIN) continue;
      if (COPIES > 0u) {
        atomicAdd(localBins[base + b[c] * 4u + c], 1u);
      } else {
        atomicAdd(bins[b[c] * 4u + c], 1u);
      }
    }
  }

  if (COPIES > 0u) {
    // All private counts must be final before they are merged.
    barrier();
    for (uint i = lid; i < words; i += groupSize) {
      uint sum = 0u;
      for (uint k = 0u; k < COPIES; ++k) sum += localBins[k * words + i];
      if (sum != 0u) atomicAdd(bins[i], sum);
    }
  }
}
