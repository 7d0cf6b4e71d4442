// The first bytes that name a PNG or a JPEG file: PNG's signature, and a
// JPEG's start of image followed by the first byte of its next marker.
// Header-only: the image-file module reads PNG chunks with it too.
#pragma once

#include <algorithm>
#include <span>

namespace gpuhist::io {

inline constexpr unsigned char kPngSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
inline constexpr unsigned char kJpegSignature[] = {0xFF, 0xD8, 0xFF};

[[nodiscard]] inline bool is_png(std::span<const unsigned char> bytes) noexcept {
  return bytes.size() >= std::size(kPngSignature) &&
         std::equal(std::begin(kPngSignature), std::end(kPngSignature), bytes.begin());
}

[[nodiscard]] inline bool is_jpeg(std::span<const unsigned char> bytes) noexcept {
  return bytes.size() >= std::size(kJpegSignature) &&
         std::equal(std::begin(kJpegSignature), std::end(kJpegSignature), bytes.begin());
}

}  // namespace gpuhist::io
