// Push constants shared by every histogram pipeline (one pipeline layout for all).
layout(push_constant) uniform Params {
  uint pixelCount;  // pixels in this batch
  uint width;       // pixels per row of the batch, for tiling into chunks
  uint chunkBase;   // first chunk of this wave
  uint chunkCount;  // chunks in this wave
  uint stride;      // distance between the chunks one reduction pass adds
  uint first;       // first pixel of this dispatch (gpu-single walks in spans)
  uint groupCount;  // workgroups of the whole run, over all its dispatches (gpu, FINISH)
} pc;
