// Reading image files (through OpenImageIO) into pixels gpuhist can count.
// Part of the gpuhist::io library, which the engine does not depend on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gpuhist/image.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist {

inline constexpr std::uint64_t kDefaultMaxPixels = 1ULL << 28;  // 16384 x 16384

// Which formats are read. Common: JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP,
// PNM (PBM, PGM, PPM, PFM), Radiance HDR, Targa and DPX, by decoders that are
// well kept and fuzzed (libjpeg-turbo, libpng, libtiff, libwebp, OpenEXR,
// giflib, and OpenImageIO's own readers). All: also every other format
// OpenImageIO reads (PSD, IFF, SGI, DICOM, JPEG 2000, HEIF, camera raw, ...),
// whose readers are less hardened.
enum class FormatSet : std::uint8_t { Common, All };

struct LoadOptions {
  // Larger images are refused before any pixel buffer is sized, and so are
  // images whose samples as stored (every channel of the file) take more than
  // max_pixels * 16 bytes.
  std::uint64_t max_pixels = kDefaultMaxPixels;
  bool alpha = false;  // read a fourth channel as alpha (RGBA), to write it back out
  FormatSet formats = FormatSet::Common;
};

// Reads the first subimage of a file into an Image of tightly packed rows.
// Samples are the stored values: no alpha premultiplication, colour conversion
// or bit-depth rescaling; palette images arrive as their expanded RGB colours.
// 8- and 16-bit unsigned files keep their integer samples; every other sample
// type arrives as float. Grey (and grey+alpha) files give Grey;
// files with three or more channels give RGB (alpha and extra channels are
// not counted, so they are not read: Image::alpha says the file had alpha),
// or RGBA with options.alpha and four or more channels. The format is found
// from the file's first bytes (Targa's, which has no signature, from the
// extension), so a misnamed file is still read by the right decoder, and a
// file of a format outside options.formats is refused before any decoder
// sees it. Throws Error(Input) naming the cause for a missing, unreadable,
// unsupported, truncated or corrupt file, a zero-sized image, one over the
// limits (header sizes are checked before the decoder allocates for them:
// GIF screens, WebP canvases, every OpenEXR part's data window and attribute,
// DPX user data), or not enough memory for its pixels.
[[nodiscard]] Image load_image(const std::filesystem::path& path, const LoadOptions& options = {});

// An Image's `warning` as a sentence for people: "WARNING (the file may be
// damaged; its pixels are used as decoded)", as the command line, the Python
// module and the data-set command print it.
[[nodiscard]] std::string damage_warning(std::string_view warning);

// What counting `image` leaves out of its file or changes, as sentences for
// people: the pages after the first, then Image::notes. The command line, the
// Python module and the data-set command say each as a warning.
[[nodiscard]] std::vector<std::string> reading_notes(const Image& image);

// The common format (OpenImageIO's name: "jpeg", "png", "tiff", "webp",
// "openexr", "gif", "bmp", "pnm", "hdr", "targa", "dpx") a file holds, by its
// first bytes or, for Targa, its extension; empty when it holds none of them
// or cannot be read.
[[nodiscard]] std::string common_format_of(const std::filesystem::path& path);

// `image` as its EXIF orientation says a viewer shows it (a phone's portrait
// photograph stored landscape, turned upright; a mirrored one mirrored back),
// its orientation 1 after. Counts do not depend on it; what shows pixels or
// compares them with an upright decode (OpenCV's imread, PIL's exif_transpose)
// wants them so.
[[nodiscard]] Image upright(Image image);

// True when the file name's extension is one of a still-image format the set
// reads (video extensions are not, though the image library opens some);
// used to pick images out of folders.
[[nodiscard]] bool has_image_extension(const std::filesystem::path& path,
                                       FormatSet formats = FormatSet::Common);

// True when the file name's extension is one of a still-image format that
// images can be written to (some read formats, such as .psd, cannot be).
[[nodiscard]] bool has_writable_image_extension(const std::filesystem::path& path);

// Why images cannot be written to a file of this name, in a few words ("no
// extension names an image format", "images are read from '.psd' files but
// cannot be written to them", ...); empty where they can be.
[[nodiscard]] std::string image_write_refusal(const std::filesystem::path& path);

// Writes integer pixels (8- or 16-bit grey, RGB or RGBA, alpha unassociated)
// to a file whose format follows the extension; a format without 16-bit
// samples (JPEG) gets them scaled to 8 bits, one without alpha (JPEG, PNM)
// the colour channels alone. Returns what the file could not hold, as a
// clause for a warning ("a jpeg file holds 8-bit samples: the 16-bit samples
// are scaled to 8 bits"), or "". Throws Error(InvalidArgument) for float
// pixels, Error(Output) naming the file when it cannot be written.
std::string save_image(const std::filesystem::path& path, const ImageView& image);
// How an image is encoded where its format leaves a choice.
struct SaveOptions {
  // A JPEG's, WebP's, HEIF's and AVIF's quality, 1..100 (100: every JPEG
  // quantisation step 1; HEIF and AVIF coded losslessly but for their halved
  // chroma); other formats are lossless.
  int quality = 100;
};

// The same, keeping the metadata of the file `metadata_from` (the image it was
// made from, of the same size and orientation). JPEG to JPEG and PNG to PNG,
// as bytes, never parsed: a JPEG's Exif (orientation, camera, date, GPS),
// XMP, IPTC, ICC profile and comments; a PNG's colour chunks, pixel size,
// Exif and text. From a TIFF, PNG or OpenEXR file (whose metadata the image
// library reads as it decodes them) to any format: its orientation,
// resolution, ICC profile, captions and rights, camera, Exif, GPS and IPTC
// fields, as the written format holds them. From a JPEG or WebP to another
// format: its orientation and ICC profile, and a JPEG's JFIF pixel density.
// An ICC profile only where both images are grey or both have colour. What
// of the source's metadata is not written is part of the returned clause.
// Throws Error(InvalidArgument) for a quality outside 1..100 too.
std::string save_image(const std::filesystem::path& path, const ImageView& image,
                       const std::filesystem::path& metadata_from, const SaveOptions& options = {});

// Writes a picture as an 8-bit RGB file whose format follows the extension
// (PNG for .png). Throws Error(InvalidArgument) for a picture of no pixels or
// whose rgba is not 4 bytes a pixel, Error(Output) naming the file when it
// cannot be written.
void save_picture(const std::filesystem::path& path, const Picture& picture);

}  // namespace gpuhist
