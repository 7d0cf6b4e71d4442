// What a JPEG or WebP file says of its picture that OpenImageIO 2.4 does not
// read for us: its Exif orientation and its ICC profile. A JPEG's metadata is
// never handed to the library (its parsers are not hardened), and the
// library's WebP reader reads none. Found by walking the file's framing (JPEG
// marker segments, WebP RIFF chunks) and reading those two payloads alone.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpuhist::images {

struct PictureTags {
  std::uint8_t orientation = 1;            // Exif orientation, 1 to 8 (1: none)
  std::vector<unsigned char> icc_profile;  // empty: none, or not a whole profile
  bool damaged_profile = false;            // one whose chunks or header did not add up
  bool other_metadata = false;             // Exif beyond that, XMP, IPTC or comments too
  std::string subsampling;                 // a JPEG's chroma subsampling (io::jpeg_subsampling)
  // A JPEG's pixel density, from its JFIF header where it gives one in dots
  // per inch or per centimetre: "in" or "cm", else empty.
  std::string resolution_unit;
  float x_resolution = 0.0F;
  float y_resolution = 0.0F;
};

// What a TIFF or PNG file holds of its picture that the image library does
// not hand over whole as metadata: a TIFF's GPS fields (a directory of their
// own, which OpenImageIO 2.4's TIFF reader does not read) and the ISO of its
// Exif directory (which that reader leaves out), and XMP (a TIFF's tag 700, a
// PNG's iTXt "XML:com.adobe.xmp", of which the library keeps a few fields).
// Found by walking the file's framing alone.
struct UnreadMetadata {
  bool gps = false;
  bool xmp = false;
  std::uint32_t iso = 0;  // a TIFF's Exif ISO speed (tag 34855), 0: none
};
[[nodiscard]] UnreadMetadata unread_metadata(const std::filesystem::path& path);

// A JPEG file's tags and chroma subsampling, from its segments up to the frame
// header (a prefix of the file, doubled while the framing goes on past it);
// none for another file.
[[nodiscard]] PictureTags jpeg_picture_tags(const std::filesystem::path& path);

// A JPEG file's first bytes, up to and with its frame header (or all of it
// where its framing ends first, up to 256 MiB); empty where it does not start
// as a JPEG.
[[nodiscard]] std::vector<unsigned char> jpeg_head(const std::filesystem::path& path);

// A WebP file's tags, from its ICCP and EXIF chunks; none for another file.
[[nodiscard]] PictureTags webp_picture_tags(const std::filesystem::path& path);

// webp_picture_tags(path).orientation.
[[nodiscard]] std::uint8_t webp_orientation(const std::filesystem::path& path);

}  // namespace gpuhist::images
