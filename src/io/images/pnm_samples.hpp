// The samples of a 16-bit PNM file (P2, P3, P5, P6 with a maximum value over
// 255) as stored, read and written here. OpenImageIO 2.4 reads them scaled
// through a float that loses a level from 32769 up (65535 read as 65534), and
// writes 8-bit samples scaled back to 16 bits; a maximum other than 65535 is
// scaled to 16 bits here as the library means to (65535 * v / M, rounded
// down, as it scales 8-bit samples), without its float.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "gpuhist/image.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::images {

// Writes the samples of the PNM file at `path` (whose first bytes are
// `head`) into `image`, already sized and laid out (grey or RGB, 16-bit) by
// the image library from the same file. False, and `image` untouched, when
// the file is not a 16-bit P2, P3, P5 or P6 of that size, its header is not
// within `head`, or it ends before its samples do. Throws std::bad_alloc.
[[nodiscard]] bool read_deep_pnm_samples(const std::filesystem::path& path,
                                         std::span<const unsigned char> head, Image& image);

// `image` (16-bit grey, RGB or RGBA, whose alpha is left out) as a binary
// PNM file of maximum 65535: P5 for grey, P6 for colour.
[[nodiscard]] std::vector<unsigned char> deep_pnm_file(const ImageView& image);

// Where a binary PNM (P4, P5, P6) or PFM (PF, Pf) of `file_bytes` bytes,
// whose first bytes are `head`, ends before its raster does: "its WxH raster
// takes N bytes after its header, and the file has M", for the message of a
// file the library could not read. Empty otherwise.
[[nodiscard]] std::string pnm_raster_shortfall(std::span<const unsigned char> head,
                                               std::uintmax_t file_bytes);

// Where a PGM or PPM (P2, P3, P5, P6) whose first bytes are `head` states a
// maximum value outside the format's 1..65535: "its maximum value is M, not
// one of 1 to 65535"; empty otherwise (or where the header is not in `head`).
[[nodiscard]] std::string pnm_bad_maximum(std::span<const unsigned char> head);

// The pixels of the plain (ASCII) PBM file at `path` into `image`, already
// sized as grey 8-bit by the image library from the same file: 1 black (0),
// 0 white (255). Whitespace between pixels is optional (the netpbm format's
// rule, which OpenImageIO 2.4's reader does not follow). False where the
// file is not a P1 of that size or its raster ends early or holds another
// character. Throws std::bad_alloc.
[[nodiscard]] bool read_plain_pbm(const std::filesystem::path& path, Image& image);

}  // namespace gpuhist::images
