// The metadata an adjusted image keeps from its source: for a JPEG written
// from a JPEG, the source's JFIF header (its pixel density), Exif
// (orientation, camera, date, GPS), XMP, IPTC, ICC profile and comment
// segments; for a PNG written from a PNG, its
// colour chunks (iCCP, sRGB, gAMA, cHRM), pixel size (pHYs), Exif (eXIf) and
// text. They are copied as the bytes they are, never parsed: only the
// segments' and chunks' framing is read (the image library's metadata parsers
// are not hardened, which is why the decoder never sees them). An ICC profile
// is left out where the written image is grey and the source is not, or the
// other way round; a JPEG's multi-picture index (APP2 "MPF"), whose offsets
// point into the source file, always.
#pragma once

#include <span>
#include <vector>

namespace gpuhist::io {

// `encoded` (a JPEG or PNG file's bytes, as the encoder wrote them) with the
// metadata of `source` (the whole source file) in place of its own, where
// both are JPEG or both PNG; unchanged otherwise, or when the source's
// framing is damaged before its pixels. `colour`: the written image has
// colour (three or more channels). Without `profile`, no ICC profile is copied.
void keep_metadata(std::span<const unsigned char> source, std::vector<unsigned char>& encoded,
                   bool colour, bool profile = true);

// Whether keep_metadata puts the JPEG `source`'s metadata in place of all of
// an encoded JPEG's own (its JFIF header, Exif, XMP, IPTC, profile and
// comments): the source has a JFIF header or metadata that is copied. (A
// JPEG written from any other is left with what its encoder wrote.)
[[nodiscard]] bool jpeg_metadata_replaced(std::span<const unsigned char> source, bool colour,
                                          bool profile = true);

}  // namespace gpuhist::io
