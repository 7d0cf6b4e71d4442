#version 460
// gpu-chunks-reduce: one pass of the tree reduction. Workgroup row y adds chunk
// 2y*stride + stride into chunk 2y*stride, one counter per invocation;
// log2(chunks) passes leave the total in chunk 0.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "params.glsl"

layout(constant_id = 2) const uint BINS = 256u;

layout(std430, set = 0, binding = 1) buffer Chunks { uint chunks[]; };

void main() {
  const uint words = BINS * 4u;
  uint i = gl_GlobalInvocationID.x;
  uint dst = gl_WorkGroupID.y * 2u * pc.stride;
  uint src = dst + pc.stride;
  if (i >= words || src >= pc.chunkCount) return;
  chunks[dst * words + i] += chunks[src * words + i];
}
