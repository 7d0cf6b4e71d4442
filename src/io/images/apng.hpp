// Whether a PNG is animated (APNG): the image library reads its default
// image alone, and the others are to be warned of.
#pragma once

#include <filesystem>

namespace gpuhist::images {

// True when the PNG file at `path` holds an animation control chunk (acTL)
// before its image data that makes more than one image: more than one frame,
// or one frame beside a default image that is not part of the animation (no
// frame control chunk, fcTL, before the image data).
[[nodiscard]] bool png_is_animated(const std::filesystem::path& path);

}  // namespace gpuhist::images
