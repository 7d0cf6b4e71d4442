// PNG files read without the image-file module, as it reads them. The
// module's reader hands a PNG to libpng, expanding palettes, low bit depths
// and transparency chunks to grey, RGB and alpha of 8 or 16 bits (libpng's
// png_set_expand); here libpng is given the same file and the same
// transformations, so the pixels are the same. What the module reads of a
// PNG beyond its pixels (an orientation in an eXIf chunk or a text chunk, an
// animation's frames) and every error are left to it. Images are written to
// PNG here too, as the module's writer writes them (with an adjusted image's
// source metadata where it is a plain PNG's), and pictures (drawn
// histograms): the 8-bit RGB pixels the module's writer stores (without its
// offset and text chunks).
#pragma once

#include <filesystem>
#include <optional>
#include <span>
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

// `image` (8 or 16 bits a sample) encoded as a PNG into `bytes` as the
// module's writer encodes it when it writes the image with the metadata of
// `metadata_source` (a PNG file's bytes; empty for none): the pixels, the
// offset chunk the module writes into every PNG, and the source's
// modification time (its tIME) as the module reads it. The source's other
// metadata is copied after it, as after the module's writer, by
// io/kept_metadata.hpp. False (`bytes` unspecified) where the module writes
// what is not known here, left to it: a source that is not a whole PNG of
// undamaged plain chunks (read_plain_png's, but for an ICC profile, which the
// module checks against the image), that holds text under a key the module
// reads as a time or an orientation, or a time it would not write back; or
// where libpng fails.
[[nodiscard]] bool encode_plain_png(const ImageView& image,
                                    std::span<const unsigned char> metadata_source,
                                    std::vector<unsigned char>& bytes);

// Whether `path` ends in .png, in any case: the name to which the module,
// too, gives PNG's format (has_image_extension).
[[nodiscard]] bool png_extension(const std::filesystem::path& path);

}  // namespace gpuhist::io
