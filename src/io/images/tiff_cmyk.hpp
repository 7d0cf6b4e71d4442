// CMYK TIFFs of four inks. OpenImageIO 2.4 converts them to RGB as it reads
// them, and for tiled files or files of separate planes its conversion
// writes past its own buffers (a crash, "free(): invalid next size", on
// valid files that libtiff reads). They are read as stored inks instead
// ("oiio:RawColor") and converted here, by the library's own arithmetic, so
// that every layout of the same file gives the same RGB.
#pragma once

#include "gpuhist/image.hpp"
#include "io/images/byte_source.hpp"

namespace gpuhist::images {

enum class TiffCmyk {
  No,          // not four-ink CMYK of 8- or 16-bit unsigned samples: the library's to read
  Inks,        // four-ink CMYK, 8- or 16-bit: read as inks, converted here
  Unreadable,  // tiled and JPEG-coded, whose conversion the library cannot read either way
};

// What the TIFF in `file` is: CMYK of four inks (PhotometricInterpretation
// separated, four samples a pixel, the CMYK ink set) or not.
[[nodiscard]] TiffCmyk tiff_cmyk(ByteSource& file);

// The RGB of `inks` (C, M, Y, K: 8- or 16-bit samples) into `rgb` (RGB of
// the same size and sample type): R = (1 - C)(1 - K), and so on, in single
// precision, rounded to the nearest level, as OpenImageIO 2.4 converts them.
void cmyk_to_rgb(const ImageView& inks, Image& rgb);

}  // namespace gpuhist::images
