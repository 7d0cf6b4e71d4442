#include "io/kept_metadata.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "io/file_signature.hpp"
#include "io/jpeg_segments.hpp"

namespace gpuhist::io {
namespace {

using Bytes = std::span<const unsigned char>;

// A segment (JPEG) or chunk (PNG): [begin, end) of its file, and its kind.
struct Piece {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::uint32_t kind = 0;  // a JPEG marker, or a PNG chunk type's four bytes
};

struct Pieces {
  std::vector<Piece> list;
  std::size_t rest = 0;  // where what is not a piece begins (a JPEG's scan; a PNG's end)
  bool colour = false;   // the image has colour: three JPEG components, a PNG colour type
  bool grey = false;     // one JPEG component (neither: CMYK, or no frame header found)
  bool whole = false;    // the framing reached the pixels without damage
};

std::size_t kept_bytes(const std::vector<Piece>& pieces) {
  std::size_t n = 0;
  for (const Piece& p : pieces) n += p.end - p.begin;
  return n;
}

bool starts(Bytes bytes, const char* text, std::size_t at = 0) {
  const std::size_t n = std::strlen(text);
  return bytes.size() >= at + n && std::memcmp(bytes.data() + at, text, n) == 0;
}

// ---- JPEG --------------------------------------------------------------

// The segments from the start of the file to its first scan.
Pieces jpeg_pieces(Bytes b) {
  Pieces out;
  const JpegHeader header = jpeg_header(b);
  for (const JpegSegment& s : header.segments) {
    if (const unsigned n = jpeg_components(b, s); is_jpeg_frame_header(s.marker) && n != 0) {
      out.colour = n == 3;
      out.grey = n == 1;
    }
    out.list.push_back({s.begin, s.end, s.marker});
  }
  out.rest = header.scan;
  out.whole = header.scan != 0;
  return out;
}

// Exif and XMP (APP1), ICC (APP2), …, Photoshop's IPTC (APP13), APP15, and comments.
bool jpeg_metadata(std::uint32_t marker) {
  return (marker >= 0xE1 && marker <= 0xED) || marker == 0xEF || marker == 0xFE;
}

// Of those, what is copied: not APP11 (JUMBF: content credentials that vouch
// for the source's pixels, JPEG XT residuals that would rebuild them).
bool jpeg_kept(std::uint32_t marker) { return jpeg_metadata(marker) && marker != 0xEB; }

bool icc_segment(Bytes b, const Piece& p) {
  return starts(b.subspan(0, p.end), "ICC_PROFILE", p.begin + 4) && p.begin + 4 + 12 <= p.end &&
         b[p.begin + 4 + 11] == 0;
}

// A JFIF header (APP0 "JFIF\0").
bool jfif(Bytes b, const Piece& p) {
  return p.kind == 0xE0 && starts(b.subspan(0, p.end), "JFIF", p.begin + 4) &&
         p.begin + 4 + 5 <= p.end && b[p.begin + 8] == 0;
}

// The source's segments that are copied.
std::vector<Piece> kept_jpeg(Bytes source, const Pieces& from, bool colour, bool profile) {
  std::vector<Piece> kept;
  // A profile fits an image of three components (RGB) written in colour, or
  // of one written grey; never a CMYK one's.
  const bool profile_fits = profile && (colour ? from.colour : from.grey);
  for (const Piece& p : from.list) {
    if (!jpeg_kept(p.kind)) continue;
    // APP2 holds ICC profiles and a multi-picture index; only a profile that fits goes.
    if (p.kind == 0xE2 && (!icc_segment(source, p) || !profile_fits)) continue;
    kept.push_back(p);
  }
  return kept;
}

// Whether keep_jpeg puts the source's header and metadata in place of the
// encoder's: it has a JFIF header or metadata that is copied.
bool replaces_jpeg(Bytes source, bool colour, bool profile) {
  const Pieces from = jpeg_pieces(source);
  return !kept_jpeg(source, from, colour, profile).empty() ||
         std::any_of(from.list.begin(), from.list.end(),
                     [&](const Piece& p) { return jfif(source, p); });
}

void keep_jpeg(Bytes source, std::vector<unsigned char>& encoded, bool colour, bool profile) {
  const Pieces from = jpeg_pieces(source);
  const std::vector<Piece> kept = kept_jpeg(source, from, colour, profile);
  const auto source_jfif = std::find_if(from.list.begin(), from.list.end(),
                                        [&](const Piece& p) { return jfif(source, p); });
  const Pieces to = jpeg_pieces(encoded);
  if ((kept.empty() && source_jfif == from.list.end()) || !to.whole) return;
  std::vector<unsigned char> out(encoded.begin(), encoded.begin() + 2);  // SOI
  out.reserve(encoded.size() + kept_bytes(kept) + 65536);
  const auto append = [&](Bytes b, const Piece& p) {
    out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(p.begin),
               b.begin() + static_cast<std::ptrdiff_t>(p.end));
  };
  // JFIF first (the source's, with its pixel density, where it has one; not
  // its JFXX thumbnail), then the source's metadata, then the encoder's
  // tables and frame.
  if (source_jfif != from.list.end()) {
    append(source, *source_jfif);
  } else {
    for (const Piece& p : to.list) {
      if (jfif(encoded, p)) append(encoded, p);
    }
  }
  for (const Piece& p : kept) append(source, p);
  for (const Piece& p : to.list) {
    if (!jfif(encoded, p) && !jpeg_metadata(p.kind)) append(encoded, p);
  }
  out.insert(out.end(), encoded.begin() + static_cast<std::ptrdiff_t>(to.rest), encoded.end());
  encoded = std::move(out);
}

// ---- PNG ---------------------------------------------------------------

constexpr std::uint32_t chunk(const char (&t)[5]) {
  return std::uint32_t{static_cast<unsigned char>(t[0])} << 24 |
         std::uint32_t{static_cast<unsigned char>(t[1])} << 16 |
         std::uint32_t{static_cast<unsigned char>(t[2])} << 8 |
         std::uint32_t{static_cast<unsigned char>(t[3])};
}

std::uint32_t be32(Bytes b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 |
         std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

// Every chunk, IHDR first, up to IEND or the first damage.
Pieces png_pieces(Bytes b) {
  Pieces out;
  std::size_t at = 8;
  while (at + 12 <= b.size()) {
    const std::uint32_t length = be32(b, at);
    if (length > b.size() - at - 12) break;
    const std::uint32_t type = be32(b, at + 4);
    if (out.list.empty() && (type != chunk("IHDR") || length < 13)) break;
    if (out.list.empty()) out.colour = (b[at + 8 + 9] & 2) != 0;  // the first IHDR's colour type
    out.list.push_back({at, at + 12 + length, type});
    at += 12 + std::size_t{length};
    if (type == chunk("IEND")) {
      out.whole = true;
      break;
    }
  }
  out.rest = at;
  return out;
}

// A chunk's CRC (ISO 3309, over its type and data) is the one it carries: a
// damaged chunk, which the decoder passed over, is not copied.
bool crc_holds(Bytes b, const Piece& p) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1U) : c >> 1U;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFU;
  for (std::size_t i = p.begin + 4; i < p.end - 4; ++i) c = table[(c ^ b[i]) & 0xFFU] ^ (c >> 8U);
  return (c ^ 0xFFFFFFFFU) == be32(b, p.end - 4);
}

bool png_metadata(std::uint32_t type) {
  for (const std::uint32_t t :
       {chunk("iCCP"), chunk("sRGB"), chunk("gAMA"), chunk("cHRM"), chunk("pHYs"), chunk("eXIf"),
        chunk("tEXt"), chunk("zTXt"), chunk("iTXt")}) {
    if (type == t) return true;
  }
  return false;
}

void keep_png(Bytes source, std::vector<unsigned char>& encoded, bool colour, bool profile) {
  const Pieces from = png_pieces(source);
  std::vector<Piece> kept;
  for (const Piece& p : from.list) {
    if (!png_metadata(p.kind) || !crc_holds(source, p)) continue;
    if (p.kind == chunk("iCCP") && (!profile || from.colour != colour)) continue;
    kept.push_back(p);
  }
  const Pieces to = png_pieces(encoded);
  if (kept.empty() || !to.whole) return;
  std::vector<unsigned char> out(encoded.begin(), encoded.begin() + 8);  // the signature
  out.reserve(encoded.size() + kept_bytes(kept));
  const auto append = [&](Bytes b, const Piece& p) {
    out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(p.begin),
               b.begin() + static_cast<std::ptrdiff_t>(p.end));
  };
  // IHDR, the source's chunks (before any palette or pixels, as colour chunks
  // must be), then the encoder's own, less those the source's replace.
  append(encoded, to.list.front());
  for (const Piece& p : kept) append(source, p);
  for (std::size_t i = 1; i < to.list.size(); ++i) {
    if (!png_metadata(to.list[i].kind)) append(encoded, to.list[i]);
  }
  encoded = std::move(out);
}

}  // namespace

bool jpeg_metadata_replaced(std::span<const unsigned char> source, bool colour, bool profile) {
  return is_jpeg(source) && replaces_jpeg(source, colour, profile);
}

void keep_metadata(std::span<const unsigned char> source, std::vector<unsigned char>& encoded,
                   bool colour, bool profile) {
  if (is_jpeg(source) && is_jpeg(encoded)) keep_jpeg(source, encoded, colour, profile);
  if (is_png(source) && is_png(encoded)) keep_png(source, encoded, colour, profile);
}

}  // namespace gpuhist::io
