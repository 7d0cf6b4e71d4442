// Whether a PNG is animated (APNG): the image library reads its first frame,
// its default image, alone, and the others are to be warned of.
#pragma once

#include <span>

namespace gpuhist::images {

// True when `head` (a PNG file's first bytes) holds an animation control
// chunk (acTL) of more than one frame before the first image data.
[[nodiscard]] bool png_is_animated(std::span<const unsigned char> head);

}  // namespace gpuhist::images
