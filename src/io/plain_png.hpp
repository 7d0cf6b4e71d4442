// PNG files read without the image-file module, as it reads them. The
// module's reader hands a PNG to libpng, expanding palettes, low bit depths
// and transparency chunks to grey, RGB and alpha of 8 or 16 bits (libpng's
// png_set_expand); here libpng is given the same file and the same
// transformations, so the pixels are the same. What the module reads of a
// PNG beyond its pixels (an orientation in an eXIf chunk or a text chunk, an
// animation's frames) and every error are left to it. A picture (a drawn
// histogram) is written to PNG here too: the 8-bit RGB pixels the module's
// writer stores (without its offset and text chunks).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist::io {

// The image in a PNG file that is read whole here, as load_image reads it;
// nullopt for any other: a file that is not a readable PNG, is over
// `options`' limits, is damaged or cut short, or holds a chunk other than
// those that leave its pixels and orientation as libpng decodes them. Those
// are left to the module, which reads them or says why not in its own words.
// Throws nothing.
[[nodiscard]] std::optional<Image> read_plain_png(const std::filesystem::path& path,
                                                  const LoadOptions& options);

// `picture` encoded as an 8-bit RGB PNG into `bytes`; false (and `bytes`
// unspecified) for a picture of no pixels or of fewer bytes than its size
// says, or where libpng fails (out of memory): left to the module, which
// writes it or says why not.
[[nodiscard]] bool encode_plain_png(const Picture& picture, std::vector<unsigned char>& bytes);

// Whether `path` ends in .png, in any case: the name to which the module,
// too, gives PNG's format (has_image_extension).
[[nodiscard]] bool png_extension(const std::filesystem::path& path);

}  // namespace gpuhist::io
