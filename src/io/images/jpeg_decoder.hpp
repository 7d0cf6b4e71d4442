// JPEG files' pixels, decoded by libjpeg-turbo itself. libjpeg conceals
// damaged coded data and says so only in warnings, and OpenImageIO's reader
// heeds the first warning while rows are read and none after: the coded data
// that damage leaves over at the end (libjpeg-turbo decodes most bad codes as
// zeros, silently) is reported only once the last row is read. Here a
// warning that means lost or made-up pixels refuses the file, as a truncated
// one is refused; coded data left over at the end, which damage leaves and so
// do some encoders, and what follows the last row, are the image's `warning`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>

#include "gpuhist/image.hpp"

namespace gpuhist::images {

// Encoders and editors that pad a JPEG's coded data leave this many bytes
// before the end marker at most: more is what damage leaves (a warning).
// JPEG-coded TIFF strips are judged the same way (io/images/tiff_damage.hpp).
inline constexpr int kMostJpegPaddingBytes = 16;

// What the header of a JPEG file says of its pixels.
struct JpegShape {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int channels = 0;  // 1 (grey) or 3 (RGB, from Y'CbCr, RGB, CMYK or YCCK)
};

// What the first directory (IFD0) of Exif data (an APP1 segment's: "Exif\0\0"
// and a TIFF header) says of the picture. Reads only within `data`.
struct ExifIfd0 {
  // The orientation tag (1-8), or 1 where there is none or the bytes do not hold one.
  std::uint8_t orientation = 1;
  // It holds more than the orientation and resolution (a camera's make, a date,
  // a directory of Exif or GPS fields), or cannot be read whole.
  bool beyond_orientation = true;
};
[[nodiscard]] ExifIfd0 exif_ifd0(std::span<const unsigned char> data);

// exif_ifd0(data).orientation.
[[nodiscard]] std::uint8_t exif_orientation(std::span<const unsigned char> data);

// The JPEG file `bytes` decoded to 8-bit grey or RGB rows, as OpenImageIO's
// reader decodes them (libjpeg's defaults: the accurate integer DCT, fancy
// upsampling; CMYK and YCCK converted as it converts them, io/images/cmyk_rgb.hpp),
// or nothing for a colour space left to that reader (one libjpeg does not
// name, of two or of more than four components). `check` sees the shape once the header is read,
// before memory is sized for the pixels, and throws to refuse it. Throws Error naming `path` for a
// header or coded data that libjpeg finds corrupt, truncated or damaged, and for more than 1000
// scans (a crafted progressive file can make each of thousands of scans cost a pass over the
// image); std::bad_alloc when memory runs out.
[[nodiscard]] std::optional<Image> decode_jpeg(std::span<const unsigned char> bytes,
                                               const std::filesystem::path& path,
                                               const std::function<void(const JpegShape&)>& check);

}  // namespace gpuhist::images
