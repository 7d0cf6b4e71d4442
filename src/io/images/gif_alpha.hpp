// Whether a GIF's first picture has a transparent colour: the image library
// gives every GIF four channels, and one without transparency is RGB.
#pragma once

#include <span>

namespace gpuhist::images {

// False when the Graphic Control Extension before the first image descriptor
// (in `head`, the file's first bytes) declares no transparent colour, or
// there is none; true when it declares one, or `head` does not say (a
// damaged file, or blocks that run past it).
[[nodiscard]] bool gif_may_be_transparent(std::span<const unsigned char> head);

}  // namespace gpuhist::images
