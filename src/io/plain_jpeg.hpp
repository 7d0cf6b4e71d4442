// JPEG files read without the image-file module. Loading the module (and
// OpenImageIO's 260 libraries with it) costs about 0.45 s of a process's start;
// a JPEG's pixels are decoded by libjpeg-turbo whichever reads them
// (io/images/jpeg_decoder.hpp), so a JPEG is read here where nothing else
// needs the module, as the module reads it.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "gpuhist/image_file.hpp"

namespace gpuhist::io {

// The image in a JPEG file that is read whole here, as load_image reads it;
// nullopt for any other: a file that is not a readable JPEG, is over
// `options`' limits, is damaged, or is of a kind libjpeg does not decode
// here. Those are left to the module, which reads them or says why not in
// its own words. Throws nothing.
[[nodiscard]] std::optional<Image> read_plain_jpeg(const std::filesystem::path& path,
                                                   const LoadOptions& options);

// `image` (8-bit grey or RGB) encoded as a JPEG at `quality` (1 to 100) into
// `bytes` as the module's writer encodes it when it writes the image with the
// metadata of `metadata_source` (a JPEG file's bytes): the pixels, with the
// source's chroma subsampling. The source's JFIF header and metadata are
// copied after it, as after the module's writer, by io/kept_metadata.hpp.
// False (`bytes` unspecified) where the module writes what is not known here,
// left to it: an image of other samples or channels, a source that is not a
// JPEG or has neither a JFIF header nor metadata that is copied (the module's
// writer's own Exif stays then), or where libjpeg fails.
[[nodiscard]] bool encode_plain_jpeg(const ImageView& image,
                                     std::span<const unsigned char> metadata_source, int quality,
                                     std::vector<unsigned char>& bytes);

// Whether `path` ends in .jpg or .jpeg, in any case: names to which the
// module, too, gives JPEG's format (has_image_extension).
[[nodiscard]] bool jpeg_extension(const std::filesystem::path& path);

}  // namespace gpuhist::io
