// Integers read from the bytes of a file's framing: big-endian (PNG, ICC,
// JPEG's markers, a TIFF of order MM) and little-endian (GIF, RIFF/WebP,
// OpenEXR, BMP, a TIFF of order II). The caller checks the bytes are there.
#pragma once

#include <cstdint>

namespace gpuhist::images {

[[nodiscard]] inline std::uint32_t big16(const unsigned char* p) {
  return std::uint32_t{p[0]} << 8 | p[1];
}
[[nodiscard]] inline std::uint32_t big32(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}
[[nodiscard]] inline std::uint32_t little16(const unsigned char* p) {
  return p[0] | std::uint32_t{p[1]} << 8;
}
[[nodiscard]] inline std::uint32_t little32(const unsigned char* p) {
  return p[0] | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

}  // namespace gpuhist::images
