// Push constants of the histogram drawing passes.
layout(push_constant) uniform DrawParams {
  uint width;       // picture size in pixels
  uint height;
  uint bins;
  uint scaleMode;   // SCALE_CLIP, SCALE_MAX, SCALE_LOG
  uint channels;    // bits: 1 red, 2 green, 4 blue, 8 luminance
  uint background;  // 0xRRGGBB
} dp;
