// The exact binning rules (README.md, "What is counted"); mirrors src/core/binning.hpp, and is
// tested for equality against it. Integer samples are binned with integer
// arithmetic only; float samples with single float operations that `precise`
// keeps from being fused or reordered.

layout(constant_id = 0) const uint CHANNELS = 4u;     // samples per pixel: 1, 3 or 4
layout(constant_id = 1) const uint SAMPLE_BITS = 8u;  // 8 or 16 (integer), 32 (float)
layout(constant_id = 2) const uint BINS = 256u;       // 1..65536
layout(constant_id = 3) const uint LUMA_601 = 0u;     // 0: Rec.709 weights, 1: Rec.601

// Tightly packed samples, read as 32-bit words (little-endian, as on the host).
layout(std430, set = 0, binding = 0) readonly buffer Pixels { uint words[]; };

const uint NO_BIN = 0xFFFFFFFFu;

uint maxValue() { return SAMPLE_BITS == 8u ? 255u : 65535u; }

uint loadSample(uint i) {
  if (SAMPLE_BITS == 8u) return bitfieldExtract(words[i >> 2], int((i & 3u) * 8u), 8);
  if (SAMPLE_BITS == 16u) return bitfieldExtract(words[i >> 1], int((i & 1u) * 16u), 16);
  return words[i];
}

// floor(v * N / M) clamped to N - 1: v * N <= 65535 * 65536 < 2^32. With 256
// bins of 8-bit samples that is v itself (floor(v * 256 / 255) = v + floor(v / 255)).
uint channelBin(uint v) {
  if (SAMPLE_BITS == 8u && BINS == 256u) return v;
  return min(v * BINS / maxValue(), BINS - 1u);
}

// floor(s * N / (10000 * M)) clamped, s = wr*r + wg*g + wb*b with weights
// summing to 10000, in 32-bit integers only: with s = 10000 t + u,
// floor(s * N / 10000) = t * N + floor(u * N / 10000) (both terms below 2^32
// for N <= 65536 and s <= 10000 * 65535), and floor(floor(x / a) / b) =
// floor(x / (a * b)). Every divisor is a constant once specialised.
uint lumaBin(uint r, uint g, uint b) {
  uint s = LUMA_601 != 0u ? 2990u * r + 5870u * g + 1140u * b : 2126u * r + 7152u * g + 722u * b;
  // 8-bit samples up to 1684 bins: s * N is below 2^32, one division does.
  if (SAMPLE_BITS == 8u && BINS <= 1684u) return min(s * BINS / (10000u * 255u), BINS - 1u);
  uint t = s / 10000u;
  uint u = s - t * 10000u;
  uint x = t * BINS + (u * BINS) / 10000u;
  return min(x / maxValue(), BINS - 1u);
}

// Float samples: clamp to [0, 1] with NaN as 0, then min(floor(c * N), N - 1).
float clampUnit(float v) { return v > 0.0 ? min(v, 1.0) : 0.0; }
uint unitBin(float c) {
  precise float x = c * float(BINS);
  return min(uint(x), BINS - 1u);
}
float floatLuma(float r, float g, float b) {
  precise float rg = LUMA_601 != 0u ? 0.299 * r + 0.587 * g : 0.2126 * r + 0.7152 * g;
  precise float l = rg + (LUMA_601 != 0u ? 0.114 * b : 0.0722 * b);
  return clampUnit(l);
}

// The R, G, B and L bins of one pixel's integer samples.
uvec4 rgbBins(uint r, uint g, uint b) {
  return uvec4(channelBin(r), channelBin(g), channelBin(b), lumaBin(r, g, b));
}

// The bins of one RGBA8 (or RGBA-ordered) 8-bit pixel packed in a word.
uvec4 wordBins(uint w) {
  return rgbBins(w & 0xFFu, bitfieldExtract(w, 8, 8), bitfieldExtract(w, 16, 8));
}

// The R, G, B and L bins of pixel p; grey pixels have only L (.w), the rest NO_BIN.
uvec4 pixelBins(uint p) {
  if (SAMPLE_BITS == 32u) {
    if (CHANNELS == 1u) {
      return uvec4(NO_BIN, NO_BIN, NO_BIN, unitBin(clampUnit(uintBitsToFloat(words[p]))));
    }
    uint i = p * CHANNELS;
    float r = clampUnit(uintBitsToFloat(words[i]));
    float g = clampUnit(uintBitsToFloat(words[i + 1u]));
    float b = clampUnit(uintBitsToFloat(words[i + 2u]));
    return uvec4(unitBin(r), unitBin(g), unitBin(b), unitBin(floatLuma(r, g, b)));
  }
  if (CHANNELS == 1u) return uvec4(NO_BIN, NO_BIN, NO_BIN, channelBin(loadSample(p)));
  if (SAMPLE_BITS == 8u && CHANNELS == 4u) return wordBins(words[p]);  // one word, one pixel
  uint i = p * CHANNELS;
  return rgbBins(loadSample(i), loadSample(i + 1u), loadSample(i + 2u));
}
