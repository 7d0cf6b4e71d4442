// CMYK samples to RGB with no colour management, as OpenImageIO 2.4 converts
// them: each level a float in [0, 1], the product in single precision,
// rounded to the nearest level (its convert_type, one value at a time).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace gpuhist::images {

// A level of `T` as a float in [0, 1].
template <typename T>
[[nodiscard]] float unit_level(T level) {
  const float scale = 1.0F / static_cast<float>(std::numeric_limits<T>::max());
  return static_cast<float>(level) * scale;
}

// A float in [0, 1] as the nearest level of `T`, clamped.
template <typename T>
[[nodiscard]] T nearest_level(float v) {
  const auto most = static_cast<float>(std::numeric_limits<T>::max());
  float s = v * most;
  s += s < 0 ? -0.5F : 0.5F;
  return static_cast<T>(std::clamp(s, 0.0F, most));
}

// One row of a CMYK JPEG's samples as libjpeg decodes them (Adobe's inverted
// inks, YCCK already made CMYK), four bytes a pixel, to RGB: R = C K, G = M K,
// B = Y K on the stored samples.
inline void jpeg_cmyk_row_to_rgb(const std::uint8_t* cmyk, std::uint8_t* rgb, std::uint32_t width) {
  for (std::uint32_t x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
    const float k = unit_level(cmyk[3]);
    for (int c = 0; c < 3; ++c) rgb[c] = nearest_level<std::uint8_t>(unit_level(cmyk[c]) * k);
  }
}

}  // namespace gpuhist::images
