// A WebP's colour as stored where it has alpha: OpenImageIO 2.4 hands it over
// premultiplied by the alpha (a constant colour under a gradient of alpha read
// as a gradient of colour), whatever it is asked; libwebp decodes it as stored.
#pragma once

#include <span>

#include "gpuhist/image.hpp"

namespace gpuhist::images {

// Writes the colour (and the alpha, for an RGBA image) of the still WebP
// `bytes` into `image`, 8-bit RGB or RGBA rows of the file's size, as libwebp
// decodes them. Returns false, leaving `image` as it was, for an animated
// WebP or bytes libwebp does not decode to that size.
bool webp_colour_as_stored(std::span<const unsigned char> bytes, Image& image);

}  // namespace gpuhist::images
