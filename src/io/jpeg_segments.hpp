// The framing of a JPEG file up to its first scan: its marker segments, read
// from their markers and lengths alone, never parsed. One walker for what
// reads a JPEG's header bytes (the metadata an adjusted image keeps, the
// chroma subsampling it is written with); compiled into the io layer and the
// image-file module.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gpuhist::io {

// A marker segment: [begin, end) of the file (its marker, length and
// payload), and the marker's second byte (0xE1 for APP1, …).
struct JpegSegment {
  std::size_t begin = 0;
  std::size_t end = 0;
  unsigned marker = 0;
};

struct JpegHeader {
  std::vector<JpegSegment> segments;  // in file order, up to the first scan
  // Where the first scan's segment (SOS) begins; 0 where the file is not a
  // JPEG, or its framing ends or breaks before a scan.
  std::size_t scan = 0;
  // The bytes end inside the framing, before a scan: a longer prefix of the
  // file would show more.
  bool cut = false;
};

// SOF0 to SOF15: a frame header, which gives the image's components.
[[nodiscard]] constexpr bool is_jpeg_frame_header(unsigned marker) noexcept {
  return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

// The segments of `file` (a whole file, or its first bytes) from its start
// of image to its first scan. Standalone markers and fill bytes are skipped;
// a segment that runs past the bytes given ends the walk.
[[nodiscard]] JpegHeader jpeg_header(std::span<const unsigned char> file);

// The first frame header of a header's segments, or nullptr.
[[nodiscard]] const JpegSegment* jpeg_frame_header(const JpegHeader& header);

// The components in the frame header of `file` (a segment of jpeg_header's):
// 1 grey, 3 colour (Y'CbCr or RGB), 4 CMYK; 0 for a segment too short.
[[nodiscard]] unsigned jpeg_components(std::span<const unsigned char> file,
                                       const JpegSegment& frame);

// The chroma subsampling of a three-component JPEG ("4:4:4", "4:2:2", "4:4:0",
// "4:2:0" or "4:1:1") as its first frame header gives it (luma's sampling
// factors over chroma's, so 1x2 for every component is 4:4:4); empty for
// other components or samplings, or a file whose framing does not lead to one.
// `header` is jpeg_header(file), for a caller that has it already.
[[nodiscard]] std::string jpeg_subsampling(std::span<const unsigned char> file,
                                           const JpegHeader& header);
[[nodiscard]] std::string jpeg_subsampling(std::span<const unsigned char> file);

}  // namespace gpuhist::io
