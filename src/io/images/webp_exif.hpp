// A WebP file's EXIF orientation, which OpenImageIO 2.4's WebP reader does
// not read: its EXIF chunk (after the image data in the extended format) is
// found by walking the file's RIFF chunks.
#pragma once

#include <cstdint>
#include <filesystem>

namespace gpuhist::images {

// The orientation (1 to 8) the WebP file at `path` holds in its EXIF chunk;
// 1 where it holds none or cannot be read.
[[nodiscard]] std::uint8_t webp_orientation(const std::filesystem::path& path);

}  // namespace gpuhist::images
