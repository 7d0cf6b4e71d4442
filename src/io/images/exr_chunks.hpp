// The chunks of an uncompressed single-part OpenEXR file of scan lines, one
// line each: OpenEXR's readers take a chunk that holds fewer bytes than its
// line as if it held them all (the C++ reader from memory it never wrote,
// OpenEXRCore's as zeros), and count the lines of a file cut short as zeros.
// Each chunk's line number, size and bytes are checked against the header
// before the library reads the file.
#pragma once

#include <cstdint>
#include <string>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// Why the file is refused ("truncated image: ..." or "corrupt image: ..."),
// or empty: its offset table at `table_at` lists `lines` chunks (the data
// window's first line `first_line`), each a line number, a size of
// `line_bytes` and that many bytes, within the file.
[[nodiscard]] std::string uncompressed_exr_fault(ByteSource& file, std::uint64_t table_at,
                                                 std::int64_t first_line, std::uint64_t lines,
                                                 std::uint64_t line_bytes);

}  // namespace gpuhist::images
