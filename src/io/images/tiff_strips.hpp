// A TIFF whose first image's strips or tiles end past the end of the file
// (truncated), or that lists fewer strips than its rows need (corrupt):
// OpenImageIO 2.4's reader inflates a strip it could read only part of, or
// none of, as if it had all of it, from memory never written (valgrind,
// fuzz_image 2026-12-03), and counts the missing samples of an uncompressed
// 1-bit strip as 0. A palette image's colour map cut off is truncated too
// (libtiff drops it, and the indices would be read as grey). Such a file is
// refused before the library reads it. Classic and BigTIFF, either byte
// order; the first directory (the image read) only.
#pragma once

#include <string>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// Why the TIFF in `file` is refused, as "truncated image: ..." or "corrupt
// ...: ..."; empty where its strips and tiles are whole or the library
// refuses it by itself (not a TIFF, no directory entries).
[[nodiscard]] std::string tiff_strips_fault(ByteSource& file);

}  // namespace gpuhist::images
