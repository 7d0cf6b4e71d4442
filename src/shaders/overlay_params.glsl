// Push constants of the overlay pass. The first three words match DrawParams,
// so the scale pass (hist_scale.comp) runs under the same layout.
layout(push_constant) uniform OverlayParams {
  uint width;        // target size in pixels
  uint height;
  uint bins;
  uint scaleMode;    // SCALE_CLIP, SCALE_MAX, SCALE_LOG
  uint leftChannels; // channel bits of the left panel: 1 red, 2 green, 4 blue, 8 luminance
  uint background;   // 0xRRGGBB
  uint rightChannels;
  uint panelWidth;   // both panels: overlay_layout() of the target size
  uint panelHeight;
  uint leftX;
  uint rightX;
  uint panelY;
  uint sampleStep;   // bytes from one colour sample of a frame pixel to the next
} op;
