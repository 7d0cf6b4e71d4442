// The drawing rule of src/render/draw_rule.hpp in GLSL: integers only, with
// 64-bit products from umulExtended, so the GPU draws exactly what the CPU does.

const uint SCALE_CLIP = 0u;
const uint SCALE_MAX = 1u;
const uint SCALE_LOG = 2u;

// a * b < c * d for 32-bit factors, compared as 64-bit products.
bool productLess(uint a, uint b, uint c, uint d) {
  uint hi0, lo0, hi1, lo1;
  umulExtended(a, b, hi0, lo0);
  umulExtended(c, d, hi1, lo1);
  return hi0 < hi1 || (hi0 == hi1 && lo0 < lo1);
}

uint columnBin(uint x, uint width, uint bins) {
  uint hi, lo;
  umulExtended(2u * x + 1u, bins, hi, lo);
  // (2x + 1) * bins < 2^31 for width, bins within limits: hi is zero.
  return lo / (2u * width);
}

// The bins column x shows, [first, end) (draw_rule.hpp's column_bins): one
// where bins <= width, else every bin whose start falls in the column.
uvec2 columnBins(uint x, uint width, uint bins) {
  if (bins <= width) {
    uint bin = columnBin(x, width, bins);
    return uvec2(bin, bin + 1u);
  }
  return uvec2(x * bins / width, (x + 1u) * bins / width);
}

uint fixedLog2(uint count) {
  uint v = min(count, 0xFFFFFFFEu) + 1u;
  uint msb = uint(findMSB(v));
  uint rest = v - (1u << msb);
  uint frac = msb > 16u ? rest >> (msb - 16u) : rest << (16u - msb);
  return (msb << 16) | frac;
}

bool covers(uint mode, uint count, uint maxCount, uint sum, uint a, uint height, uint bins) {
  if (count == 0u) return false;
  uint twoH = 2u * height;
  if (mode == SCALE_MAX) return productLess(a, maxCount, twoH, count);
  if (mode == SCALE_CLIP) {
    return productLess(a, maxCount, twoH, count) || productLess(a * 5u, sum, twoH * bins, count);
  }
  return productLess(a, fixedLog2(maxCount), twoH, fixedLog2(count));
}

uint paletteColour(uint mask, uint background) {
  if (mask == 0u) return background & 0xFFFFFFu;
  bool white = (mask & 8u) != 0u;
  uint r = (white || (mask & 1u) != 0u) ? 0xFFu : 0u;
  uint g = (white || (mask & 2u) != 0u) ? 0xFFu : 0u;
  uint b = (white || (mask & 4u) != 0u) ? 0xFFu : 0u;
  return (r << 16) | (g << 8) | b;
}
