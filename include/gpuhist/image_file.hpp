// Reading image files (through OpenImageIO) into pixels gpuhist can count.
// Part of the gpuhist::io library, which the engine does not depend on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuhist/image.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist {

inline constexpr std::uint64_t kDefaultMaxPixels = 1ULL << 28;  // 16384 x 16384

struct LoadOptions {
  std::uint64_t max_pixels = kDefaultMaxPixels;  // larger images are refused before decoding
  bool alpha = false;  // read a fourth channel as alpha (RGBA), to write it back out
};

// Reads the first subimage of a file into an Image of tightly packed rows.
// Samples are the stored values: no alpha premultiplication, colour conversion
// or bit-depth rescaling; palette images arrive as their expanded RGB colours.
// 8- and 16-bit unsigned files keep their integer samples; every other sample
// type arrives as float. Grey (and grey+alpha) files give Grey;
// files with three or more channels give RGB (alpha and extra channels are
// not counted, so they are not read), or RGBA with options.alpha and four or
// more channels. Throws Error(Input) naming the cause
// for a missing, unreadable, unsupported, truncated or corrupt file, a
// zero-sized image, or one over max_pixels.
[[nodiscard]] Image load_image(const std::filesystem::path& path, const LoadOptions& options = {});

// True when the file name's extension is one the image library reads; used to
// pick images out of folders.
[[nodiscard]] bool has_image_extension(const std::filesystem::path& path);

// Writes integer pixels (8- or 16-bit grey, RGB or RGBA, alpha unassociated)
// to a file whose format follows the extension; a format without 16-bit
// samples (JPEG) gets them scaled to 8 bits. Throws Error(InvalidArgument) for
// float pixels, Error(Output) naming the file when it cannot be written.
void save_image(const std::filesystem::path& path, const ImageView& image);

// Writes a picture as an 8-bit RGB file whose format follows the extension
// (PNG for .png). Throws Error(Output) naming the file when it cannot.
void save_picture(const std::filesystem::path& path, const Picture& picture);

}  // namespace gpuhist
