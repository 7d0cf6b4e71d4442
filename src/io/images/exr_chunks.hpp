// The chunks of an uncompressed single-part OpenEXR file, of scan lines (one
// line a chunk) or of tiles of one level: OpenEXR's readers take a chunk
// that holds fewer bytes than its pixels as if it held them all (the C++
// reader from memory it never wrote, OpenEXRCore's as zeros), and count the
// pixels of a file cut short as zeros. Each chunk's place, size and bytes
// are checked against the header before the library reads the file.
#pragma once

#include <cstdint>
#include <string>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// What the header says of the pixels.
struct ExrShape {
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  std::int64_t first_line = 0;    // the data window's
  std::uint64_t pixel_bytes = 0;  // every channel's sample, as stored
};

// Why the file is refused ("truncated image: ..." or "corrupt image: ..."),
// or empty: its offset table at `table_at` lists a chunk a line, each the
// line's number, its size and that many bytes, within the file.
[[nodiscard]] std::string uncompressed_exr_fault(ByteSource& file, std::uint64_t table_at,
                                                 const ExrShape& shape);

// The same of a file of tiles of `tile_width` x `tile_height` pixels, one
// level: a chunk a tile, row by row, each its tile's column, row and level
// (0, 0), its size and the bytes of its pixels within the image.
[[nodiscard]] std::string uncompressed_exr_tiles_fault(ByteSource& file, std::uint64_t table_at,
                                                       const ExrShape& shape,
                                                       std::uint64_t tile_width,
                                                       std::uint64_t tile_height);

}  // namespace gpuhist::images
