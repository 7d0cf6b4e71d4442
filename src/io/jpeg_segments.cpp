#include "io/jpeg_segments.hpp"

namespace gpuhist::io {

JpegHeader jpeg_header(std::span<const unsigned char> b) {
  JpegHeader out;
  if (b.size() < 2 || b[0] != 0xFF || b[1] != 0xD8) return out;
  std::size_t at = 2;  // after SOI
  for (;;) {
    if (at + 2 > b.size()) {
      out.cut = true;
      return out;
    }
    if (b[at] != 0xFF) return out;  // damage: no marker where one belongs
    const unsigned marker = b[at + 1];
    if (marker == 0xFF) {  // a fill byte: the marker is the next byte
      ++at;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // standalone: no length
      at += 2;
      continue;
    }
    if (marker == 0xD9) return out;  // the image ends before its scan
    if (at + 4 > b.size()) {
      out.cut = true;
      return out;
    }
    const std::size_t length = std::size_t{b[at + 2]} << 8 | b[at + 3];
    if (length < 2) return out;
    if (at + 2 + length > b.size()) {
      out.cut = true;
      return out;
    }
    if (marker == 0xDA) {  // SOS
      out.scan = at;
      return out;
    }
    out.segments.push_back({at, at + 2 + length, marker});
    at += 2 + length;
  }
}

unsigned jpeg_components(std::span<const unsigned char> file, const JpegSegment& frame) {
  // Marker, length, precision, height, width, then Nf.
  return frame.end - frame.begin >= 10 ? file[frame.begin + 9] : 0;
}

const JpegSegment* jpeg_frame_header(const JpegHeader& header) {
  for (const JpegSegment& s : header.segments) {
    if (is_jpeg_frame_header(s.marker)) return &s;
  }
  return nullptr;
}

std::string jpeg_subsampling(std::span<const unsigned char> file, const JpegHeader& header) {
  const JpegSegment* frame = jpeg_frame_header(header);
  // Nf, then components of three bytes: id, H << 4 | V, a table: three
  // (Y'CbCr, RGB) or four (CMYK, YCCK; written back as Y'CbCr, with the
  // subsampling its first two components' factors give).
  const unsigned components = frame == nullptr ? 0U : jpeg_components(file, *frame);
  if (components < 3 || components > 4 ||
      frame->end - frame->begin < 10 + 3 * std::size_t{components}) {
    return {};
  }
  const auto sampling = [&](std::size_t c) {
    return unsigned{file[frame->begin + 10 + 3 * c + 1]};
  };
  // The subsampling is luma's factors over chroma's: FFmpeg writes 4:4:4 as
  // 1x2 factors for all three components, most encoders as 1x1.
  const unsigned h = sampling(0) >> 4U, v = sampling(0) & 15U;
  const unsigned ch = sampling(1) >> 4U, cv = sampling(1) & 15U;
  if (sampling(2) != sampling(1) || ch == 0 || cv == 0 || h % ch != 0 || v % cv != 0) return {};
  switch ((h / ch) << 4U | (v / cv)) {
    case 0x11:
      return "4:4:4";
    case 0x21:
      return "4:2:2";
    case 0x12:
      return "4:4:0";
    case 0x22:
      return "4:2:0";
    case 0x41:
      return "4:1:1";
    default:
      return {};
  }
}

std::string jpeg_subsampling(std::span<const unsigned char> file) {
  return jpeg_subsampling(file, jpeg_header(file));
}

}  // namespace gpuhist::io
