// A palette TIFF's colours as libtiff's own image reader makes 8-bit values
// of its colormap: each 16-bit entry's high byte, or the entry itself where
// no entry of the map exceeds 255 (an 8-bit map, which some writers store).
// OpenImageIO 2.4 divides each entry by 257 instead, which takes one level
// off every colour of a map written as v x 256 (as Pillow writes them: 255
// read as 254), and turns an 8-bit map black. Such a file is given to the
// library with a map of each entry's 8-bit value x 257, in a copy of the
// file's bytes.
#pragma once

#include <vector>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// Whether the TIFF's first directory is a palette image whose colormap
// OpenImageIO reads into colours other than libtiff's.
[[nodiscard]] bool tiff_colormap_misread(ByteSource& file);

// `bytes`, that whole file, with a map of libtiff's 8-bit values x 257
// (SHORTs) appended, and the first directory's colormap entry pointing at it
// (no other byte changes).
void rewrite_tiff_colormap(std::vector<unsigned char>& bytes);

}  // namespace gpuhist::images
