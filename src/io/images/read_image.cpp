#include "io/images/images.hpp"

#include <OpenEXR/OpenEXRConfig.h>
#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imageio.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include "gpuhist/error.hpp"
#include "io/file_extension.hpp"
#include "io/images/apng.hpp"
#include "io/images/bmp_pixels.hpp"
#include "io/images/byte_order.hpp"
#include "io/images/exr_chunks.hpp"
#include "io/images/gif_alpha.hpp"
#include "io/images/gif_coded_data.hpp"
#include "io/images/icc_guard.hpp"
#include "io/images/jpeg_decoder.hpp"
#include "io/images/memory_reader.hpp"
#include "io/images/picture_tags.hpp"
#include "io/images/png_chunks.hpp"
#include "io/images/pnm_samples.hpp"
#include "io/images/sample_notes.hpp"
#include "io/images/tiff_bits.hpp"
#include "io/images/tiff_cmyk.hpp"
#include "io/images/tiff_colormap.hpp"
#include "io/images/tiff_damage.hpp"
#include "io/images/tiff_strips.hpp"
#include "io/images/webp_colour.hpp"
#include "io/missing_file.hpp"

namespace gpuhist::images {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& cause,
                       Remedy remedy = Remedy::None) {
  throw Error(ErrorKind::Input, path.string() + ": " + cause, remedy);
}

// OpenImageIO messages can span lines, and a reader may give one for every
// strip or row it failed on (thousands of a truncated TIFF); the CLI prints
// one line per error: the first messages, up to about 300 characters, then
// how many more there were; a message repeated is given once.
std::string one_line(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    // (The library repeats some: "Couldn't decode subimage 0" twice.)
    if (!line.empty() && std::find(lines.begin(), lines.end(), line) == lines.end()) {
      lines.push_back(line);
    }
  }
  if (lines.empty()) return "unknown decoder error";
  std::string out = lines.front();
  std::size_t shown = 1;
  for (; shown < lines.size() && out.size() + lines[shown].size() < 300; ++shown) {
    out += " " + lines[shown];
  }
  if (shown < lines.size()) {
    out += " (and " + std::to_string(lines.size() - shown) + " more messages)";
  }
  return out;
}

SampleType sample_type(const OIIO::TypeDesc& type) {
  if (type.basetype == OIIO::TypeDesc::UINT8) return SampleType::U8;
  if (type.basetype == OIIO::TypeDesc::UINT16) return SampleType::U16;
  return SampleType::F32;
}

OIIO::TypeDesc type_desc(SampleType sample) {
  switch (sample) {
    case SampleType::U8:
      return OIIO::TypeDesc::UINT8;
    case SampleType::U16:
      return OIIO::TypeDesc::UINT16;
    case SampleType::F32:
      return OIIO::TypeDesc::FLOAT;
  }
  return OIIO::TypeDesc::FLOAT;
}

}  // namespace

namespace {

// The common formats and the extensions OpenImageIO gives them.
const std::set<std::string>& common_formats() {
  static const std::set<std::string> formats = {"jpeg", "png", "tiff", "webp",  "openexr", "gif",
                                                "bmp",  "pnm", "hdr",  "targa", "dpx"};
  return formats;
}

// OpenImageIO's format for an extension ("jpg" -> "jpeg"); empty when none.
std::string format_of_extension(const std::string& extension) {
  for (const auto& [format, list] : OIIO::get_extension_map()) {
    if (std::find(list.begin(), list.end(), extension) != list.end()) return format;
  }
  return {};
}

// The first bytes of a file, enough for every signature and the header
// fields checked before decoding (an OpenEXR header's attributes among them).
struct Head {
  std::array<unsigned char, 65536> bytes{};
  std::size_t size = 0;  // of `bytes` read
  [[nodiscard]] bool starts(std::string_view magic) const {
    return size >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
  }
};

Head read_head(const std::filesystem::path& path) {
  Head head;
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(head.bytes.data()),
          static_cast<std::streamsize>(head.bytes.size()));
  head.size = static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount()));
  return head;
}

// The common format a file's signature shows; empty for none.
std::string sniff(const Head& h) {
  using namespace std::string_view_literals;
  if (h.starts("\xFF\xD8\xFF"sv)) return "jpeg";
  if (h.starts("\x89PNG\r\n\x1A\n"sv)) return "png";
  if (h.starts("II*\0"sv) || h.starts("MM\0*"sv) || h.starts("II+\0"sv) || h.starts("MM\0+"sv)) {
    return "tiff";
  }
  if (h.starts("RIFF"sv) && h.size >= 12 && std::memcmp(h.bytes.data() + 8, "WEBP", 4) == 0) {
    return "webp";
  }
  if (h.starts("\x76\x2F\x31\x01"sv)) return "openexr";
  if (h.starts("GIF87a"sv) || h.starts("GIF89a"sv)) return "gif";
  if (h.starts("BM"sv)) return "bmp";
  if (h.size >= 3 && h.bytes[0] == 'P' && std::strchr("123456fF", h.bytes[1]) != nullptr &&
      h.bytes[1] != '\0' && std::isspace(h.bytes[2]) != 0) {
    return "pnm";
  }
  if (h.starts("#?RADIANCE"sv) || h.starts("#?RGBE"sv)) return "hdr";
  if (h.starts("SDPX"sv) || h.starts("XPDS"sv)) return "dpx";
  return {};
}

// What an OpenEXR header says of one part's size: its data window, the bytes
// of one pixel of all its channels, and its compression.
struct ExrSize {
  std::int64_t width = 0, height = 0;
  std::int64_t first_line = 0;  // the data window's
  std::uint64_t pixel_bytes = 0;
  int compression = -1;
  bool id_manifest = false;  // an attribute of type idmanifest
  bool scanlines = true;     // neither tiled nor deep
  bool deep = false;
  std::uint32_t tile_width = 0, tile_height = 0;  // of one level, where tiled so
  bool sampled = false;      // a channel of x or y sampling other than 1
  std::uint64_t header_end = 0;  // the byte after this part's header
};

// The size of a value of an OpenEXR attribute type of fixed size; 0 for the
// types of any size (strings, channel lists, previews, unknown types).
std::uint32_t exr_type_size(const std::string& type) {
  static const std::map<std::string, std::uint32_t> sizes = {{"box2i", 16},
                                                             {"box2f", 16},
                                                             {"compression", 1},
                                                             {"lineOrder", 1},
                                                             {"envmap", 1},
                                                             {"deepImageState", 1},
                                                             {"float", 4},
                                                             {"int", 4},
                                                             {"double", 8},
                                                             {"v2i", 8},
                                                             {"v2f", 8},
                                                             {"v2d", 16},
                                                             {"v3i", 12},
                                                             {"v3f", 12},
                                                             {"v3d", 24},
                                                             {"m33f", 36},
                                                             {"m44f", 64},
                                                             {"m33d", 72},
                                                             {"m44d", 128},
                                                             {"rational", 8},
                                                             {"timecode", 8},
                                                             {"keycode", 28},
                                                             {"chromaticities", 32},
                                                             {"tiledesc", 9}};
  const auto it = sizes.find(type);
  return it == sizes.end() ? 0 : it->second;
}

// Whether a value of a variable-size attribute type, read as OpenEXR reads
// it, takes exactly its stated length: OpenEXR goes on to the next attribute
// from wherever the value's reader stopped, not from where the length says,
// so a value read short or long puts every later length out of step with
// this walk (a fuzzed file had OpenEXR ask for 1.9 GB that way), and some
// readers size allocations from their own fields.
bool exr_value_fits(const std::string& type, const unsigned char* v, std::uint32_t length) {
  if (type == "chlist") {
    // Channels: a name of at most 255 bytes and its NUL, then 16 bytes; a NUL ends the list.
    const unsigned char* c = v;
    const unsigned char* stop = v + length;
    for (;;) {
      if (c >= stop) return false;
      const auto* zero =
          static_cast<const unsigned char*>(std::memchr(c, 0, static_cast<std::size_t>(stop - c)));
      if (zero == nullptr || zero - c > 255) return false;
      if (zero == c) return zero + 1 == stop;
      if (stop - zero - 1 < 16) return false;
      c = zero + 17;
    }
  }
  if (type == "stringvector") {
    // Strings, each a 32-bit length and its bytes, up to the value's length.
    std::uint64_t at = 0;
    while (at < length) {
      if (length - at < 4) return false;
      const auto n = static_cast<std::int32_t>(little32(v + at));
      at += 4;
      if (n < 0 || static_cast<std::uint64_t>(n) > length - at) return false;
      at += static_cast<std::uint64_t>(n);
    }
    return true;
  }
  if (type == "preview") {  // width, height (each under 2^31), then width x height RGBA bytes
    return length >= 8 && little32(v) < 0x80000000U && little32(v + 4) < 0x80000000U &&
           std::uint64_t{little32(v)} * little32(v + 4) * 4 + 8 == length;
  }
  if (type == "floatvector") return length % 4 == 0;
  if (type == "idmanifest") return length >= 8;  // a 64-bit size, then the data
  return true;  // strings and types OpenEXR does not know are read as their length says
}

// The parts of an OpenEXR file as the headers in `bytes` (the file's first
// bytes) describe them (one for a single-part file), walked as OpenEXR walks
// them before it opens the file; nullopt when the headers run past `bytes`.
// Throws Error(Input) for a header OpenEXR would misread or allocate
// gigabytes for: an attribute past the end of the file, a fixed-size type of
// another length, a variable-size value its reader would read short or long,
// a name or type OpenEXR would cut, a part with no data window.
std::optional<std::vector<ExrSize>> walk_exr_headers(const std::filesystem::path& path,
                                                     std::span<const unsigned char> bytes,
                                                     std::uintmax_t file_bytes) {
  if (bytes.size() < 8) return std::nullopt;
  const bool multipart = (little32(bytes.data() + 4) & 0x1000U) != 0;
  const unsigned char* p = bytes.data() + 8;
  const unsigned char* end = bytes.data() + bytes.size();
  struct RanOut {};
  const auto text = [&](std::string& out) {
    const auto* zero =
        static_cast<const unsigned char*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
    if (zero == nullptr) {
      if (end - p > 255)
        fail(path, "corrupt image: an OpenEXR attribute's name or type is over 255 bytes");
      throw RanOut{};
    }
    if (zero - p > 255)
      fail(path, "corrupt image: an OpenEXR attribute's name or type is over 255 bytes");
    out.assign(reinterpret_cast<const char*>(p), static_cast<std::size_t>(zero - p));
    p = zero + 1;
  };
  std::vector<ExrSize> parts;
  try {
    for (;;) {
      ExrSize size;
      bool window = false;
      bool any = false;
      for (;;) {
        std::string name, type;
        if (p >= end) throw RanOut{};
        text(name);
        if (name.empty()) break;  // the end of this header
        any = true;
        text(type);
        if (end - p < 4) throw RanOut{};
        const std::uint32_t length = little32(p);
        p += 4;
        std::string shown =
            one_line(name);  // appended to: GCC 12 misreads '"'" + ...' (-Wrestrict)
        shown.insert(0, 1, '\'');
        shown.append("' of type ").append(one_line(type));
        // OpenEXR sizes each attribute's value from its length as it reads it;
        // OpenEXRCore, which reads OpenEXR files here, reads every value as
        // long as it is stated (OpenEXR's C++ reader before 3.2 read an ID
        // manifest 4 bytes past it).
        const std::uint64_t read = length;
        if (read > file_bytes - static_cast<std::uintmax_t>(p - bytes.data())) {
          fail(path,
               "corrupt image: its OpenEXR attribute " + shown + " runs past the end of the file");
        }
        if (static_cast<std::uint64_t>(end - p) < read) throw RanOut{};
        // OpenEXR reads values of fixed-size types by their size, whatever the
        // length says, and so would read the next attributes from elsewhere.
        if (const std::uint32_t fixed = exr_type_size(type); fixed != 0 && fixed != length) {
          fail(path, "corrupt image: its OpenEXR attribute " + shown + " has " +
                         std::to_string(length) + " bytes, not " + std::to_string(fixed));
        }
        if (!exr_value_fits(type, p, length)) {
          fail(path, "corrupt image: its OpenEXR attribute " + shown + " does not fill its " +
                         std::to_string(length) + " bytes");
        }
        const unsigned char* value = p;
        p += read;
        size.id_manifest = size.id_manifest || type == "idmanifest";
        if (name == "type" &&
            std::string_view(reinterpret_cast<const char*>(value), length).substr(0, 4) == "deep") {
          size.deep = true;
        }
        if (name == "tiles" ||
            (name == "type" &&
             std::string_view(reinterpret_cast<const char*>(value), length) != "scanlineimage")) {
          size.scanlines = false;
        }
        // A tile description: its size and, in the low bits of its mode, one level.
        if (name == "tiles" && type == "tiledesc" && length == 9 && (value[8] & 0x0FU) == 0) {
          size.tile_width = little32(value);
          size.tile_height = little32(value + 4);
        }
        if (name == "dataWindow" && type == "box2i" && length == 16) {
          const auto at = [&](int i) { return static_cast<std::int32_t>(little32(value + 4 * i)); };
          size.width = std::int64_t{at(2)} - at(0) + 1;
          size.height = std::int64_t{at(3)} - at(1) + 1;
          size.first_line = at(1);
          window = true;
        } else if (name == "compression" && type == "compression" && length == 1) {
          size.compression = value[0];
        } else if (name == "channels" && type == "chlist") {
          // name, pixel type (0 uint, 1 half, 2 float), linear, reserved, x and y sampling.
          for (const unsigned char* c = value; *c != 0;) {
            const auto* zero = static_cast<const unsigned char*>(std::memchr(c, 0, 256));
            size.pixel_bytes += little32(zero + 1) == 1 ? 2U : 4U;
            size.sampled = size.sampled || little32(zero + 9) != 1 || little32(zero + 13) != 1;
            c = zero + 17;
          }
        }
      }
      if (!any) {
        // An empty header ends a multi-part file's list of headers.
        if (multipart && !parts.empty()) break;
        fail(path, "corrupt image: its OpenEXR header has no attributes");
      }
      if (!window) fail(path, "corrupt image: its OpenEXR header has no data window");
      size.header_end = static_cast<std::uint64_t>(p - bytes.data());
      parts.push_back(size);
      if (!multipart) break;
    }
  } catch (const RanOut&) {
    return std::nullopt;
  }
  return parts;
}

// The parts of an OpenEXR file (walk_exr_headers), reading more of the file
// as long headers need, up to 16 MB of them.
std::vector<ExrSize> exr_parts(const std::filesystem::path& path, const Head& head,
                               std::uintmax_t file_bytes) {
  constexpr std::uintmax_t kMostHeaderBytes = std::uintmax_t{16} << 20;
  if (auto parts = walk_exr_headers(path, std::span(head.bytes.data(), head.size), file_bytes)) {
    return *parts;
  }
  std::vector<unsigned char> bytes;
  for (std::uintmax_t want = std::uintmax_t{head.size} * 8;; want *= 8) {
    want = std::min({want, file_bytes, kMostHeaderBytes});
    bytes.resize(static_cast<std::size_t>(want));
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (static_cast<std::uintmax_t>(in.gcount()) != want) fail(path, "cannot read the file");
    if (auto parts = walk_exr_headers(path, bytes, file_bytes)) return *parts;
    if (want == file_bytes) {
      fail(path, "corrupt image: its OpenEXR header ends before the end of its attributes");
    }
    if (want == kMostHeaderBytes)
      fail(path, "its OpenEXR header is larger than 16 MB, which is not read");
  }
}

// The reader of `format` for the file at `path`. OpenEXR files have two:
// OpenEXRCore's refuses a Zip, RLE, PIZ or PXR24 chunk that inflates short,
// where the C++ reader copied on from its buffer as if it had not (pixels it
// never wrote: valgrind, fuzz_image 2026-12-03), as it does with an
// uncompressed chunk shorter than its lines; but in OpenEXR 3.1 it reads the
// float channels of B44 (stored as they are) wrong and refuses valid DWAA
// and DWAB files, which the C++ reader reads right or refuses. So a file
// whose first part (the one read) is B44, B44A, DWAA or DWAB is read by the
// C++ reader, every other by OpenEXRCore's. Such a file with an ID manifest,
// which the C++ reader before OpenEXR 3.2 reads 4 bytes past (and the rest
// of the header out of step), is refused. The choice is a process-wide
// attribute read as each reader is made: set and made under one lock.
std::unique_ptr<OIIO::ImageInput> create_reader(const std::string& format,
                                                const std::filesystem::path& path,
                                                const Head& head, std::uintmax_t file_bytes) {
  if (format != "openexr") return OIIO::ImageInput::create(format);
  const std::vector<ExrSize> parts = exr_parts(path, head, file_bytes);
  const int compression = parts.empty() ? -1 : parts.front().compression;
  const bool core = compression < 6 || compression > 9;
  if (!core &&
      std::any_of(parts.begin(), parts.end(), [](const ExrSize& p) { return p.id_manifest; })) {
    fail(path,
         "unsupported image: an OpenEXR file of B44 or DWA coding with an ID manifest, which "
         "OpenEXR 3.1 does not read right");
  }
  static std::mutex choosing;
  const std::lock_guard<std::mutex> lock(choosing);
  OIIO::attribute("openexr:core", core ? 1 : 0);
  return OIIO::ImageInput::create(format);
}

// The file's bytes into `bytes` (whose memory is reused from call to call);
// fewer where the file shrank since it was measured. Not enough memory for
// them is the file's error.
void read_whole_file(const std::filesystem::path& path, std::uintmax_t file_bytes,
                     std::vector<unsigned char>& bytes) {
  try {
    bytes.resize(file_bytes);
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory to read its " + std::to_string(file_bytes) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
}

// A JPEG file's bytes without its APP1..APP13, APP15 and comment segments
// (Exif, XMP, IPTC, ICC profiles, comments), which the pixels do not depend
// on: JFIF (APP0) and Adobe's colour transform (APP14) are kept, and so is
// everything from the start of the scan on. Segments that stop making sense
// before the scan end the copy there: the decoder then finds it truncated.
// The segments are dropped from `bytes`, the file's, in place.
void drop_jpeg_metadata(std::vector<unsigned char>& bytes) {
  std::size_t kept = std::min<std::size_t>(2, bytes.size());  // SOI
  std::size_t at = 2;
  const auto keep = [&](std::size_t from, std::size_t to) {
    std::memmove(bytes.data() + kept, bytes.data() + from, to - from);
    kept += to - from;
  };
  while (at + 4 <= bytes.size() && bytes[at] == 0xFF) {
    const unsigned char marker = bytes[at + 1];
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    const bool standalone = marker == 0x01 || (marker >= 0xD0 && marker <= 0xD9);
    const std::size_t length = standalone ? 0 : (std::size_t{bytes[at + 2]} << 8 | bytes[at + 3]);
    if (!standalone && (length < 2 || at + 2 + length > bytes.size())) break;
    const bool metadata = (marker >= 0xE1 && marker <= 0xEF && marker != 0xEE) || marker == 0xFE;
    const std::size_t end = at + 2 + length;
    if (!metadata) keep(at, end);
    at = end;
    if (marker == 0xDA) {  // start of scan: the entropy-coded data follows, as it is
      keep(at, bytes.size());
      break;
    }
  }
  bytes.resize(kept);
}

// A DPX header's fields, in the byte order its magic number shows ("SDPX":
// big-endian). `bytes` holds the fields read (a Head: all 2048 bytes of the
// headers).
struct DpxFields {
  std::span<const unsigned char> bytes;
  [[nodiscard]] bool big() const {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), "SDPX", 4) == 0;
  }
  [[nodiscard]] std::uint32_t u16(std::size_t at) const {
    const unsigned char* p = bytes.data() + at;
    return big() ? (std::uint32_t{p[0]} << 8 | p[1]) : little16(p);
  }
  [[nodiscard]] std::uint32_t u32(std::size_t at) const {
    return big() ? big32(bytes.data() + at) : little32(bytes.data() + at);
  }
  [[nodiscard]] unsigned u8(std::size_t at) const { return bytes[at]; }
};

// Samples a pixel of an element holds, by its descriptor, as the DPX reader
// counts them; nullopt for a descriptor it counts by the channels it reports.
std::optional<std::uint64_t> dpx_samples(unsigned descriptor) {
  if (descriptor >= 1 && descriptor <= 8) return 1;
  if (descriptor == 50 || descriptor == 101 || descriptor == 102) return 3;
  if (descriptor == 51 || descriptor == 52 || descriptor == 103) return 4;
  if (descriptor == 100) return 2;
  if (descriptor >= 150 && descriptor <= 156) return descriptor - 148;
  return std::nullopt;
}

// OpenImageIO's DPX reader hands the header's text fields to strlen. DPX lets
// a text fill its field with no NUL after it, and a crafted header runs such a
// string on through the fields after it and past the header into memory never
// written (valgrind, fuzz_image, 2026-12-03). The pixels do not depend on the
// text: the file is decoded from a copy whose every text field ends in a NUL.
// Where the pixels start within the 2048 bytes of those headers (the film and
// television headers are optional: FFmpeg writes pixels from byte 1664),
// the copy holds the whole 2048 bytes and then the pixels, its offsets moved
// by as much, so that no NUL falls on a pixel.
// (Offsets of SMPTE 268M's file, image, orientation and film headers.)
void read_dpx_with_ended_text(const std::filesystem::path& path, std::uintmax_t file_bytes,
                              std::vector<unsigned char>& bytes) {
  read_whole_file(path, file_bytes, bytes);
  constexpr std::size_t kHeaders = 2048, kElements = 780, kElement = 72, kDataOffset = 28;
  // (The fields of the copy as it is: its bytes move as it grows.)
  const auto get32 = [&](std::size_t at) { return DpxFields{bytes}.u32(at); };
  const bool big = DpxFields{bytes}.big();
  const auto put32 = [&](std::size_t at, std::uint32_t value) {
    for (std::size_t i = 0; i < 4; ++i) {
      const std::size_t shift = big ? 24 - 8 * i : 8 * i;
      bytes[at + i] = static_cast<unsigned char>(value >> shift);
    }
  };
  if (bytes.size() >= kElements + 8 * kElement) {
    // The pixels' start: the file header's image offset, or an element's before it.
    std::uint32_t start = get32(4);
    for (std::size_t e = 0; e < 8; ++e) {
      const std::uint32_t at = get32(kElements + e * kElement + kDataOffset);
      if (at != 0 && at != 0xFFFFFFFF && at < start) start = at;
    }
    if (start < kHeaders && start < bytes.size()) {
      const std::uint32_t moved = static_cast<std::uint32_t>(kHeaders - start);
      std::vector<unsigned char> header(kHeaders, 0);
      std::copy_n(bytes.begin(), std::min(bytes.size(), kHeaders), header.begin());
      bytes.insert(bytes.begin() + start, header.begin() + start, header.end());
      if (get32(4) >= start) put32(4, get32(4) + moved);
      for (std::size_t e = 0; e < 8; ++e) {
        const std::size_t field = kElements + e * kElement + kDataOffset;
        const std::uint32_t at = get32(field);
        if (at != 0xFFFFFFFF && at >= start) put32(field, at + moved);
      }
      put32(16, get32(16) + moved);  // the file's size
    }
    // Rows of 8- or 16-bit samples (or 12-bit ones filled into 16 bits each)
    // that do not end on a 32-bit word, in a file long enough for rows that
    // do (FFmpeg writes them so) and that names no end-of-line padding: read
    // as padded to the word, as FFmpeg reads them, where the image library
    // would read them as unpadded.
    const std::size_t element = kElements;
    const DpxFields dpx{bytes};
    const unsigned bits = dpx.u8(element + 23);
    const std::uint32_t packing = dpx.u16(element + 24), encoding = dpx.u16(element + 26);
    const std::uint32_t padding = dpx.u32(element + 32);
    const std::optional<std::uint64_t> samples = dpx_samples(dpx.u8(element + 20));
    const std::uint64_t sample_bytes = bits == 8                                    ? 1
                                       : bits == 16 || (bits == 12 && packing != 0) ? 2
                                                                                    : 0;
    if (sample_bytes != 0 && encoding == 0 && (padding == 0 || padding == 0xFFFFFFFF) && samples) {
      const std::uint64_t width = get32(772), height = get32(776);
      const std::uint64_t row = width * *samples * sample_bytes;
      const std::uint64_t padded = (row + 3) / 4 * 4;
      const std::uint64_t offset =
          get32(element + kDataOffset) != 0 ? get32(element + kDataOffset) : get32(4);
      if (width <= 0xFFFFFF && height <= 0xFFFFFF && row % 4 != 0 && offset <= bytes.size() &&
          padded * height <= bytes.size() - offset) {
        put32(element + 32, static_cast<std::uint32_t>(padded - row));
      }
    }
  }
  struct Text {
    std::size_t at, size;
  };
  static constexpr std::array<Text, 20> kTexts{{
      {8, 8},       // version
      {36, 100},    // file name
      {136, 24},    // creation time
      {160, 100},   // creator
      {260, 200},   // project
      {460, 200},   // copyright
      {1432, 100},  // source file name
      {1532, 24},   // source time
      {1556, 32},   // input device
      {1588, 32},   // its serial number
      {1664, 2},    // film: manufacturer, type, perforation offset, prefix, count
      {1666, 2},   {1668, 2}, {1670, 6}, {1676, 4}, {1680, 32},  // format
      {1732, 32},                                                // frame
      {1764, 100},                                               // slate
      {1864, 56},                                                // reserved
      {0, 0},
  }};
  for (const Text& t : kTexts) {
    if (t.size != 0 && t.at + t.size <= bytes.size()) bytes[t.at + t.size - 1] = 0;
  }
  for (std::size_t element = 0; element < 8; ++element) {  // each element's description
    const std::size_t end = 780 + 72 * element + 72;
    if (end <= bytes.size()) bytes[end - 1] = 0;
  }
}

// The first element's pixels, which OpenImageIO's DPX reader reads, as the
// header states them and `spec` (the reader's) counts them:
// - one-channel 10-bit filled rows whose width is not a multiple of 3 are
//   refused: the reader swaps each three samples in place, the last three too
//   where the row ends before them, so it writes past the row and takes one
//   sample of each row from beyond it (valgrind, fuzz_image 2026-12-03);
// - a file that ends before the pixels do is refused as truncated: the reader
//   went on from memory never written. The bytes counted are the fewest the
//   element's packing takes (rows' own padding left out).
void check_dpx_element(const std::filesystem::path& path, const Head& h, std::uintmax_t file_bytes,
                       const OIIO::ImageSpec& spec) {
  constexpr std::size_t kElement = 780;
  const DpxFields dpx{h.bytes};
  const unsigned descriptor = dpx.u8(kElement + 20), bits = dpx.u8(kElement + 23);
  const std::uint32_t packing = dpx.u16(kElement + 24), encoding = dpx.u16(kElement + 26);
  if (spec.nchannels == 1 && bits == 10 && (packing == 1 || packing == 2) && spec.width % 3 != 0) {
    fail(path, "unsupported image: one-channel 10-bit DPX rows of " + std::to_string(spec.width) +
                   " pixels, not a multiple of 3, which the image library decodes wrongly");
  }
  if (encoding != 0) return;  // run-length coded: no fixed size
  const std::uint64_t samples =
      dpx_samples(descriptor).value_or(static_cast<std::uint64_t>(spec.nchannels));
  const std::uint64_t per_row = samples * static_cast<std::uint64_t>(spec.width);
  std::uint64_t row_bytes = 0;
  if (bits == 10 && packing != 0) {
    row_bytes = (per_row + 2) / 3 * 4;  // three samples a 32-bit word
  } else if (bits == 12 && packing != 0) {
    row_bytes = per_row * 2;  // one sample a 16-bit word
  } else if (bits % 8 == 0) {
    row_bytes = per_row * (bits / 8);  // whole bytes, rows unpadded as the reader reads them
  } else {
    row_bytes = (per_row * bits + 31) / 32 * 4;  // packed into 32-bit words
  }
  std::uint64_t start = dpx.u32(kElement + 28);  // the element's offset, else the file's
  if (start == 0 || start == 0xFFFFFFFFU) start = dpx.u32(4);
  // Bytes after each row: the reader steps over them, and takes a value of
  // 2^31 or more as a step back, before the element (fuzz_image, 2026-12-03).
  std::uint64_t padding = dpx.u32(kElement + 32);
  if (padding == 0xFFFFFFFFU) padding = 0;  // undefined
  if (padding >= 0x80000000U) {
    fail(path,
         "corrupt image: its DPX rows end in " + std::to_string(padding) + " bytes of padding");
  }
  const auto height = static_cast<std::uint64_t>(spec.height);
  const std::uint64_t need = row_bytes * height + padding * (height > 0 ? height - 1 : 0);
  if (start + need > file_bytes) {
    fail(path, "truncated image: its DPX pixels take " + std::to_string(need) +
                   " bytes from byte " + std::to_string(start) + ", past the end of its " +
                   std::to_string(file_bytes) + " bytes");
  }
}

std::uint64_t max_expansion(const std::string& format, int tiff_compression = 1);

// How a Deflate TIFF's strips or tiles are read, around OpenImageIO 2.4's own
// inflating, which reports no failure of its own (a damaged strip or tile came
// out as zeros, exit 0), where libtiff's reports it.
struct DeflateTiff {
  // Strips OpenImageIO would inflate itself (several whole strips of 8- or
  // 16-bit samples in one plane): read a row at a time, through libtiff.
  bool row_by_row = false;
  // Planes stored apart: rows read together in whole strips (a row of each
  // plane in turn would seek back into strips, which libtiff's Deflate cannot).
  int strip_rows = 1;
  // Tiles it inflates on several threads: read on one, each through libtiff.
  bool one_thread = false;
};

DeflateTiff deflate_tiff(const OIIO::ImageInput& input, const OIIO::ImageSpec& spec) {
  DeflateTiff d;
  const int compression = spec.get_int_attribute("tiff:Compression", 1);
  if (std::string_view(input.format_name()) != "tiff" ||
      (compression != 8 && compression != 32946)) {
    return d;
  }
  if (spec.tile_width > 0) {
    d.one_thread = compression == 8;
    return d;
  }
  // (As OpenImageIO takes them: one channel is one plane, whatever the file says.)
  if (spec.get_int_attribute("tiff:PlanarConfiguration", 1) == 2 && spec.nchannels > 1) {
    d.strip_rows = std::max(1, spec.get_int_attribute("tiff:RowsPerStrip", 1));
  } else {
    d.row_by_row = compression == 8 &&
                   (spec.format == OIIO::TypeDesc::UINT8 || spec.format == OIIO::TypeDesc::UINT16);
  }
  return d;
}

// The channel that is alpha, or -1: the reader's where it names one of the
// channels (OpenImageIO 2.4's GIF reader names the fifth of four), else one
// named A or Alpha after the first.
int alpha_channel_of(const OIIO::ImageSpec& spec) {
  if (spec.alpha_channel >= 0 && spec.alpha_channel < spec.nchannels) return spec.alpha_channel;
  for (int c = 1; c < spec.nchannels && static_cast<std::size_t>(c) < spec.channelnames.size();
       ++c) {
    if (spec.channelnames[static_cast<std::size_t>(c)] == "A" ||
        spec.channelnames[static_cast<std::size_t>(c)] == "Alpha")
      return c;
  }
  return -1;
}

// A GIF's RGBA pixels as read (transparent ones black) into `out`, RGB or
// RGBA, with the transparent index's colour under the first picture's
// transparent pixels: the colour the file stores there, as a PNG's palette
// and tRNS give it. (The screen the picture does not cover holds none.)
void colour_transparent_pixels(const Image& rgba, const GifTransparency& first, Image& out) {
  const std::size_t channels = channel_count(out.format.layout);
  const std::uint64_t right = std::uint64_t{first.left} + first.width;
  const std::uint64_t bottom = std::uint64_t{first.top} + first.height;
  for (std::uint32_t y = 0; y < rgba.height; ++y) {
    const auto* from = reinterpret_cast<const unsigned char*>(rgba.storage.data()) +
                       static_cast<std::size_t>(y) * rgba.stride;
    auto* to = reinterpret_cast<unsigned char*>(out.storage.data()) +
               static_cast<std::size_t>(y) * out.stride;
    const bool row_in = y >= first.top && y < bottom;
    for (std::uint32_t x = 0; x < rgba.width; ++x, from += 4, to += channels) {
      const bool transparent = from[3] == 0 && row_in && x >= first.left && x < right;
      for (std::size_t c = 0; c < 3; ++c) to[c] = transparent ? first.colour[c] : from[c];
      if (channels == 4) to[3] = from[3];
    }
  }
}

// Reads the first `channels` channels of every row into the image's rows as
// `wanted` samples. Rows whose samples are stored as wanted are read straight
// into place; others are read a few rows at a time into a buffer of at most
// kChunkBytes (or one row) and converted by OpenImageIO's own conversion, as
// read_image would. (read_image itself converts through a buffer of 64 MB,
// whatever the image's size, whenever samples are converted or channels
// left out: 8-bit PNGs with alpha, half-float EXRs, DPX.) Tiled files go
// through read_image, which reads them tile by tile. With `last_from`, the
// last channel read is that channel of the file (alpha stored after other
// channels: R, G, B, X, A), the others the first ones.
bool read_rows(OIIO::ImageInput& input, const OIIO::ImageSpec& spec, int channels,
               OIIO::TypeDesc wanted, Image& image, int last_from = -1) {
  const DeflateTiff deflate = deflate_tiff(input, spec);
  const auto stride = static_cast<OIIO::stride_t>(image.stride);
  // The file's channel for each channel read.
  const auto source = [&](int c) { return c == channels - 1 && last_from >= 0 ? last_from : c; };
  const bool in_order = source(channels - 1) == channels - 1;
  if (spec.tile_width > 0) {
    if (deflate.one_thread) input.threads(1);
    const bool native = spec.format == wanted && spec.channelformats.empty();
    const OIIO::TypeDesc type = native ? OIIO::TypeDesc::UNKNOWN : wanted;
    if (in_order) {
      return input.read_image(0, 0, 0, channels, type, image.storage.data(), OIIO::AutoStride,
                              stride);
    }
    // The first channels, then the last one read into its place in each pixel.
    const auto xstride = static_cast<OIIO::stride_t>(wanted.size() * std::size_t(channels));
    return input.read_image(0, 0, 0, channels - 1, wanted, image.storage.data(), xstride, stride) &&
           input.read_image(0, 0, last_from, last_from + 1, wanted,
                            image.storage.data() + wanted.size() * std::size_t(channels - 1),
                            xstride, stride);
  }
  const int height = spec.height;
  if (spec.format == wanted && spec.channelformats.empty() && channels == spec.nchannels &&
      in_order) {
    // Packed rows in one call (TIFF strips of other codings decode on several
    // threads), else row by row.
    if (image.stride == spec.scanline_bytes(true) && !deflate.row_by_row) {
      return input.read_native_scanlines(0, 0, spec.y, spec.y + height, 0, image.storage.data());
    }
    for (int y = 0; y < height; ++y) {
      std::byte* row = image.storage.data() + static_cast<std::size_t>(y) * image.stride;
      if (!input.read_native_scanlines(0, 0, spec.y + y, spec.y + y + 1, 0, row)) return false;
    }
    return true;
  }
  constexpr std::size_t kChunkBytes = std::size_t{4} << 20;
  const std::size_t pixel_bytes = spec.pixel_bytes(true);  // every channel, as stored
  const std::size_t scanline = pixel_bytes * static_cast<std::size_t>(spec.width);
  int chunk = deflate.row_by_row ? 1
                                 : static_cast<int>(std::clamp<std::size_t>(
                                       kChunkBytes / std::max<std::size_t>(1, scanline), 1,
                                       static_cast<std::size_t>(height)));
  // Whole strips where the planes are stored apart (the last chunk ends with the image).
  if (const int strip = deflate.strip_rows; strip > 1) {
    chunk = std::min(height, std::max(1, chunk / strip) * strip);
  }
  // Room past the last row: OpenImageIO's DPX reader writes up to two samples
  // past one-channel 10-bit rows (valgrind, fuzz_image, 2026-12-03); the
  // image's own rows have PixelBuffer's padding behind them.
  constexpr std::size_t kDecoderSlack = 64;
  std::vector<std::byte> buffer(scanline * static_cast<std::size_t>(chunk) + kDecoderSlack);
  const auto xstride =
      static_cast<OIIO::stride_t>(wanted.size() * static_cast<std::size_t>(channels));
  for (int y0 = 0; y0 < height; y0 += chunk) {
    const int rows = std::min(chunk, height - y0);
    if (!input.read_native_scanlines(0, 0, spec.y + y0, spec.y + y0 + rows, 0, buffer.data())) {
      return false;
    }
    std::byte* out = image.storage.data() + static_cast<std::size_t>(y0) * image.stride;
    const auto format_of = [&](int c) {
      return spec.channelformats.empty() ? spec.format
                                         : spec.channelformats[static_cast<std::size_t>(c)];
    };
    // Where a channel starts in a stored pixel.
    const auto offset_of = [&](int c) {
      std::size_t offset = 0;
      for (int before = 0; before < c; ++before) offset += format_of(before).size();
      return offset;
    };
    // Runs of channels stored alike, one after another in the file, are
    // converted together.
    for (int c = 0, n = 1; c < channels; c += n) {
      const OIIO::TypeDesc stored = format_of(source(c));
      for (n = 1; c + n < channels && source(c + n) == source(c) + n &&
                  format_of(source(c + n)) == stored;) {
        ++n;
      }
      if (!OIIO::convert_image(n, spec.width, rows, 1, buffer.data() + offset_of(source(c)), stored,
                               static_cast<OIIO::stride_t>(pixel_bytes),
                               static_cast<OIIO::stride_t>(scanline), OIIO::AutoStride,
                               out + static_cast<std::size_t>(c) * wanted.size(), wanted, xstride,
                               stride, OIIO::AutoStride)) {
        return false;
      }
    }
  }
  return true;
}

// Sizes a header claims that a decoder would allocate for before reading a
// pixel: refused here when they exceed the limits or the file itself.
void check_header(const std::filesystem::path& path, const std::string& format, const Head& h,
                  std::uintmax_t file_bytes, std::uint64_t max_pixels) {
  if (format == "webp" && h.size >= 30) {
    // The canvas, which the reader sizes its buffer for as it opens the file.
    const unsigned char* b = h.bytes.data();
    std::uint64_t w = 0, ht = 0;
    if (std::memcmp(b + 12, "VP8X", 4) == 0) {
      w = 1 + (b[24] | b[25] << 8 | std::uint64_t{b[26]} << 16);
      ht = 1 + (b[27] | b[28] << 8 | std::uint64_t{b[29]} << 16);
    } else if (std::memcmp(b + 12, "VP8 ", 4) == 0) {
      w = little16(b + 26) & 0x3FFFU;
      ht = little16(b + 28) & 0x3FFFU;
    } else if (std::memcmp(b + 12, "VP8L", 4) == 0 && b[20] == 0x2F) {
      const std::uint32_t bits = little32(b + 21);
      w = 1 + (bits & 0x3FFFU);
      ht = 1 + ((bits >> 14) & 0x3FFFU);
    }
    if (w * ht > max_pixels) {
      fail(path,
           "its WebP canvas of " + std::to_string(w) + "x" + std::to_string(ht) + " = " +
               std::to_string(w * ht) + " pixels exceeds the limit of " +
               std::to_string(max_pixels),
           Remedy::MaxPixels);
    }
  }
  if (format == "gif" && h.size >= 10) {
    // The logical screen, which the reader allocates as one canvas.
    const std::uint64_t w = little16(h.bytes.data() + 6), sh = little16(h.bytes.data() + 8);
    if (w * sh > max_pixels) {
      fail(path,
           "its GIF screen of " + std::to_string(w) + "x" + std::to_string(sh) + " = " +
               std::to_string(w * sh) + " pixels exceeds the limit of " +
               std::to_string(max_pixels),
           Remedy::MaxPixels);
    }
  }
  if (format == "bmp") {
    // OpenImageIO's BMP reader takes fields it could not read as read
    // (valgrind: decisions on memory never written, fuzz_image 2026-12-03):
    // the file header, the info header its size names and the palette are
    // all in the file.
    const std::uint64_t header = h.size >= 18 ? little32(h.bytes.data() + 14) : 0;
    // (OS/2's 16- and 64-byte headers are not among them: the reader reads
    // none of their fields and goes on with its own unwritten.)
    const bool known = header == 12 || header == 40 || header == 52 || header == 56 ||
                       header == 108 || header == 124;
    if (!known) {
      fail(path, "corrupt or unsupported image: a BMP info header of " + std::to_string(header) +
                     " bytes (the BMP headers read are of 12, 40, 52, 56, 108 or 124)");
    }
    std::uint64_t palette = 0;
    if (header >= 40) {
      const std::uint32_t depth = little16(h.bytes.data() + 28);
      const std::uint64_t used = little32(h.bytes.data() + 46);
      if (depth <= 8) palette = 4 * (used != 0 ? used : std::uint64_t{1} << depth);
    } else if (header == 12) {
      const std::uint32_t depth = little16(h.bytes.data() + 24);
      if (depth <= 8) palette = 3 * (std::uint64_t{1} << depth);
    }
    if (14 + header + palette > file_bytes || 14 + header > h.size) {
      fail(path, "corrupt image: a BMP of " + std::to_string(file_bytes) +
                     " bytes, shorter than its headers and palette (" +
                     std::to_string(14 + header + palette) + " bytes)");
    }
  }
  if (format == "bmp" && h.size >= 26) {
    // OpenImageIO's BMP reader decodes run-length coded images whole as it
    // opens the file, into a buffer sized from the header. Height is signed
    // (negative: rows top-down); OS/2 headers (12 bytes) hold 16-bit sides.
    const bool core = little32(h.bytes.data() + 14) == 12;
    const auto side = [&](std::size_t core_at, std::size_t info_at) -> std::int64_t {
      if (core) return little16(h.bytes.data() + core_at);
      return static_cast<std::int32_t>(little32(h.bytes.data() + info_at));
    };
    const std::int64_t w = side(18, 18), ht = side(20, 22);
    const std::uint64_t width = static_cast<std::uint64_t>(w < 0 ? -w : w);
    const std::uint64_t height = static_cast<std::uint64_t>(ht < 0 ? -ht : ht);
    if (width == 0 || height == 0) fail(path, "image has zero size");
    const std::uint64_t pixels = height > max_pixels / width ? max_pixels + 1 : width * height;
    if (pixels > max_pixels) {
      fail(path,
           "its BMP header claims " + std::to_string(width) + "x" + std::to_string(height) +
               " pixels, over the limit of " + std::to_string(max_pixels),
           Remedy::MaxPixels);
    }
    if (pixels * 4 > file_bytes * max_expansion(format) + (1U << 20)) {
      fail(path, "corrupt image: its header claims " + std::to_string(width) + "x" +
                     std::to_string(height) + " pixels, more than its " +
                     std::to_string(file_bytes) + " bytes can hold");
    }
    // The pixels start within the file, and a coding is one its depth takes:
    // OpenImageIO's reader ran a run-length coding of 24-bit pixels (which
    // BMP has not) out of bounds (fuzz_image, 2026-12-02).
    const std::uint32_t header = little32(h.bytes.data() + 14);
    const std::uint64_t pixels_at = little32(h.bytes.data() + 10);
    if (pixels_at < 14 + std::uint64_t{header} || pixels_at >= file_bytes) {
      fail(path, "corrupt image: its BMP pixels start at byte " + std::to_string(pixels_at) +
                     ", outside its " + std::to_string(file_bytes) + " bytes after the header");
    }
    if (!core && h.size >= 34) {
      const std::uint32_t depth = little16(h.bytes.data() + 28);
      const std::uint32_t coding = little32(h.bytes.data() + 30);
      const bool fits = coding == 0   ? (depth == 1 || depth == 4 || depth == 8 || depth == 16 ||
                                       depth == 24 || depth == 32)
                        : coding == 1 ? depth == 8
                        : coding == 2 ? depth == 4
                        : coding == 3 || coding == 6 ? (depth == 16 || depth == 32)
                                                     : false;
      if (!fits) {
        fail(path, "corrupt or unsupported image: a BMP of " + std::to_string(depth) +
                       "-bit pixels in coding " + std::to_string(coding) +
                       " (BMP codes 1-, 4-, 8-, 16-, 24- and 32-bit pixels plain, 8-bit and "
                       "4-bit run-length, 16- and 32-bit bit fields)");
      }
    }
  }
  if (format == "openexr") {
    // OpenEXR sizes its decompression buffers from each part's data window as it opens the file.
    const std::vector<ExrSize> parts = exr_parts(path, h, file_bytes);
    for (const ExrSize& part : parts) {
      const ExrSize* exr = &part;
      if (exr->width <= 0 || exr->height <= 0) fail(path, "image has zero size");
      const auto width = static_cast<std::uint64_t>(exr->width);
      const auto height = static_cast<std::uint64_t>(exr->height);
      // Compared by division first: the product of two claimed sides may not fit.
      const std::uint64_t pixels = height > max_pixels / width ? max_pixels + 1 : width * height;
      if (pixels > max_pixels || pixels * exr->pixel_bytes / 16 > max_pixels) {
        fail(path,
             std::to_string(exr->width) + "x" + std::to_string(exr->height) + " pixels of " +
                 std::to_string(exr->pixel_bytes) + " bytes exceed the limit of " +
                 std::to_string(max_pixels) + " pixels (x 16 bytes)",
             Remedy::MaxPixels);
      }
      // No compression; RLE or B44; ZIP, ZIPS or PXR24 (the others are not bounded).
      const std::uint64_t expansion =
          exr->compression == 0                                                     ? 16
          : exr->compression == 1 || exr->compression == 6 || exr->compression == 7 ? 1024
          : exr->compression == 2 || exr->compression == 3 || exr->compression == 5 ? 4096
                                                                                    : 0;
      if (expansion != 0 && pixels * exr->pixel_bytes > file_bytes * expansion + (1U << 20)) {
        fail(path, "corrupt image: its header claims " + std::to_string(exr->width) + "x" +
                       std::to_string(exr->height) + " pixels, more than its " +
                       std::to_string(file_bytes) + " bytes can hold");
      }
    }
    // An uncompressed file's lines or tiles, each whole (io/images/exr_chunks.hpp).
    if (parts.size() == 1 && parts[0].compression == 0 && !parts[0].sampled &&
        (little32(h.bytes.data() + 4) & 0x1000U) == 0) {
      ByteSource file(path);
      const ExrSize& part = parts[0];
      const ExrShape shape{static_cast<std::uint64_t>(part.width),
                           static_cast<std::uint64_t>(part.height), part.first_line,
                           part.pixel_bytes};
      std::string fault;
      if (part.scanlines) {
        fault = uncompressed_exr_fault(file, part.header_end, shape);
      } else if (!part.deep && part.tile_width != 0 && part.tile_height != 0) {
        fault = uncompressed_exr_tiles_fault(file, part.header_end, shape, part.tile_width,
                                             part.tile_height);
      }
      if (!fault.empty()) fail(path, fault);
    }
  }
  if (format == "png") {
    // libpng allocates each chunk's claimed length before reading it. A
    // critical chunk (IHDR, PLTE, IDAT) whose CRC does not match its bytes
    // is refused here, saying which: libpng would refuse it too, printing
    // its own line on stderr besides.
    ByteSource file(path);
    PngChunks chunks(file);
    while (const std::optional<PngChunk> chunk = chunks.next()) {
      if (chunk->at + 12 > file_bytes) break;
      if (chunk->length > PngChunk::kMostLength || chunk->end() > file_bytes) {
        fail(path, "corrupt image: a PNG chunk claims " + std::to_string(chunk->length) +
                       " bytes, past the end of the file");
      }
      if (chunk->is("IEND")) break;
      if (!png_chunk_crc_matches(file, *chunk)) {
        fail(path, "corrupt image: its PNG " + std::string(chunk->type.begin(), chunk->type.end()) +
                       " chunk's CRC does not match its bytes");
      }
    }
  }
  if (format == "tiff") {
    ByteSource file(path);
    if (const std::string fault = tiff_strips_fault(file); !fault.empty()) fail(path, fault);
  }
  if (format == "dpx") {
    // The file, image, orientation and film headers are read whole (2048
    // bytes): a shorter file leaves the reader's fields unwritten.
    constexpr std::size_t kDpxHeaders = 2048;
    if (file_bytes < kDpxHeaders || h.size < kDpxHeaders) {
      fail(path, "corrupt DPX file: " + std::to_string(file_bytes) +
                     " bytes, shorter than the 2048 bytes of its headers");
    }
    // User data and the image itself lie within the file.
    const DpxFields dpx{h.bytes};
    const std::uint32_t image_offset = dpx.u32(4), user_size = dpx.u32(32);
    if (image_offset > file_bytes || (user_size != 0xFFFFFFFFU && user_size > file_bytes)) {
      fail(path, "corrupt DPX header: it places data beyond the end of the file");
    }
  }
}

// The most bytes of samples (as stored, every channel) one byte of a file of
// `format` can decode to, where its coding bounds it (deflate: about 1032:1;
// run lengths: about 128:1 a channel; LZW: about 2730:1), with room to spare;
// 0 where it is not bounded (JPEG's end-of-band runs, WebP's one-symbol codes).
// A TIFF's follows its coding (`tiff_compression`, TIFF's code): none,
// PackBits, LZW and Deflate are bounded, the others (fax, JPEG, ZSTD) not.
std::uint64_t max_expansion(const std::string& format, int tiff_compression) {
  // Low bit depths and palettes widen further: 1-bit samples or indices decode to bytes.
  if (format == "tiff") {
    switch (tiff_compression) {
      case 1:
        return 32;  // none: 1-bit palette indices to three bytes
      case 32773:
        return 4096;  // PackBits
      case 5:         // LZW
      case 8:         // Adobe Deflate
      case 32946:
        return 131072;  // Deflate
      default:
        return 0;
    }
  }
  if (format == "png") return 131072;
  if (format == "gif") return 32768;
  if (format == "hdr" || format == "bmp" || format == "targa") return 1024;
  if (format == "pnm" || format == "dpx") return 128;
  return 0;  // OpenEXR's data window is checked against the file in check_header
}

// The pixel limit (options.max_pixels), checked once a header gives the size.
void check_pixel_limit(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                       const LoadOptions& options) {
  const std::uint64_t pixels = std::uint64_t{width} * height;
  if (pixels > options.max_pixels) {
    fail(path,
         std::to_string(width) + "x" + std::to_string(height) + " = " + std::to_string(pixels) +
             " pixels exceeds the limit of " + std::to_string(options.max_pixels),
         Remedy::MaxPixels);
  }
}

// What decoding the pixels as stored takes, against the limit and against
// what the file's bytes can hold (within the pixel limit: the product fits in
// 64 bits). A header claiming more pixels than the file could hold (a
// corrupt or crafted file) is refused before memory is sized for them.
void check_stored_bytes(const std::filesystem::path& path, std::uint32_t width,
                        std::uint32_t height, int channels, std::uint64_t sample_bytes,
                        const std::string& format, std::uintmax_t file_bytes,
                        const LoadOptions& options, int tiff_compression = 1) {
  const std::uint64_t stored =
      std::uint64_t{width} * height * static_cast<std::uint64_t>(channels) * sample_bytes;
  if (stored / 16 > options.max_pixels) {
    fail(path,
         std::to_string(width) + "x" + std::to_string(height) + " pixels of " +
             std::to_string(channels) + " channels take " + std::to_string(stored) +
             " bytes, over the limit of " + std::to_string(options.max_pixels) +
             " pixels x 16 bytes",
         Remedy::MaxPixels);
  }
  const std::uint64_t expansion = max_expansion(format, tiff_compression);
  if (expansion != 0 && stored > std::uint64_t{file_bytes} * expansion + (1U << 20)) {
    fail(path, "corrupt image: its header claims " + std::to_string(width) + "x" +
                   std::to_string(height) + " pixels, more than its " + std::to_string(file_bytes) +
                   " bytes can hold");
  }
}

// Camera raw files are TIFF containers; their extension tells them apart.
bool camera_raw(const std::string& sniffed, const std::string& by_extension) {
  return sniffed == "tiff" && by_extension == "raw";
}

}  // namespace

std::string common_format_of(const std::filesystem::path& path) {
  const std::string sniffed = sniff(read_head(path));
  const std::string by_extension = format_of_extension(lower_extension(path));
  if (camera_raw(sniffed, by_extension)) return {};
  if (!sniffed.empty()) return sniffed;
  return by_extension == "targa" ? by_extension : std::string();
}

bool has_unsound_profile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  return !unsound_icc_profiles(path, sniff(read_head(path))).empty();
}

std::unique_ptr<OIIO::ImageInput> open_for_metadata(const std::filesystem::path& path,
                                                    std::uint64_t pixels) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return nullptr;
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (ec || file_bytes == 0) return nullptr;
  const Head head = read_head(path);
  const std::string format = sniff(head);
  // A camera raw (a TIFF by its bytes) is decoded turned upright by LibRaw:
  // its orientation tag no longer holds.
  if (camera_raw(format, format_of_extension(lower_extension(path)))) return nullptr;
  // JPEG's metadata is never handed to the image library (see load_image),
  // nor DPX's text; the other formats' metadata it reads as it decodes them.
  if (format != "tiff" && format != "png" && format != "webp" && format != "openexr") {
    return nullptr;
  }
  try {
    check_header(path, format, head, file_bytes, pixels);
  } catch (const Error&) {
    return nullptr;
  }
  std::unique_ptr<OIIO::ImageInput> input;
  try {
    input = create_reader(format, path, head, file_bytes);
  } catch (const Error&) {
    return nullptr;
  }
  OIIO::ImageSpec opened;
  const OIIO::ImageSpec config;
  if (!input || !input->open(path.string(), opened, config)) {
    if (input) (void)input->geterror();
    (void)OIIO::geterror();
    return nullptr;
  }
  return input;
}

namespace {
Image load_unguarded(const std::filesystem::path& path, const LoadOptions& options);
}  // namespace

// A size too large to allocate, wherever a decoder meets it (a GIF screen
// sized from its header, with the pixel limit lifted), is said as what it is.
Image load_image(const std::filesystem::path& path, const LoadOptions& options) {
  try {
    return load_unguarded(path, options);
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory to decode it");
  } catch (const std::length_error&) {
    fail(path, "not enough memory to decode it (a size too large to allocate)");
  }
}

namespace {

Image load_unguarded(const std::filesystem::path& path, const LoadOptions& options) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    fail(path, io::missing_file_cause(ec));
  }
  if (std::filesystem::is_directory(status)) fail(path, "is a directory");
  // A pipe or a device would be read twice (signature, then decoder).
  if (!std::filesystem::is_regular_file(status)) fail(path, "not a regular file");
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot open: " + ec.message());
  if (file_bytes == 0) fail(path, "file is empty");
  if (::access(path.c_str(), R_OK) != 0)
    fail(path, "cannot open: " + std::generic_category().message(errno));

  const Head head = read_head(path);
  std::string format = sniff(head);
  const std::string by_extension = format_of_extension(lower_extension(path));
  if (camera_raw(format, by_extension)) {
    if (options.formats == FormatSet::Common) {
      fail(path, "cannot read image: camera raw files are not read by default", Remedy::AllFormats);
    }
    format = by_extension;
  }
  if (format.empty() && by_extension == "targa") format = by_extension;
  if (format.empty() && options.formats == FormatSet::Common) {
    if (common_formats().count(by_extension) != 0) {
      fail(path, "cannot read image: not a " + by_extension +
                     " file (it does not start as one), nor of another format read by default");
    }
    // The image library reads videos' first frames through FFmpeg: a video
    // given as an image is named as one.
    if (by_extension == "ffmpeg") {
      fail(path, "cannot read image: it is named as a video", Remedy::ReadAsVideo);
    }
    if (!by_extension.empty()) {
      fail(path, "cannot read image: " + by_extension + " files are not read by default",
           Remedy::AllFormats);
    }
    fail(path,
         "cannot read image: not a JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP, PNM, HDR, Targa or "
         "DPX file",
         Remedy::AllFormats);
  }
  check_header(path, format, head, file_bytes, options.max_pixels);


  // Keep stored samples as they are: no premultiplication by alpha on read.
  OIIO::ImageSpec config;
  config.attribute("oiio:UnassociatedAlpha", 1);
  // The bytes of a JPEG or DPX file, which are decoded from memory. A JPEG
  // libjpeg does not decode here goes to the image library without its
  // metadata segments, whose parsers there are not hardened (an IPTC block
  // overran a buffer); the pixels do not depend on them. Declared before the reader, which uses
  // them until it is destroyed.
  // Kept from file to file on each decoding thread: a fresh buffer a file
  // costs a page fault every 4 KiB. Let go of after a file over 16 MB.
  static thread_local std::vector<unsigned char> stripped;
  struct Release {
    ~Release() {
      if (stripped.capacity() > (std::size_t{16} << 20))
        std::vector<unsigned char>().swap(stripped);
    }
  } release;
  std::optional<MemoryReader> memory;
  std::unique_ptr<OIIO::ImageInput> input;
  if (format == "jpeg" || format == "dpx") {
    if (format == "jpeg") {
      read_whole_file(path, file_bytes, stripped);
    } else {
      read_dpx_with_ended_text(path, file_bytes, stripped);
    }
    if (format == "jpeg") {
      // Grey, colour and CMYK JPEGs are decoded by libjpeg here (which reads
      // no metadata but JFIF's and Adobe's); others by the image library.
      // (Not enough memory to decode it: said by load_image.)
      std::optional<Image> decoded = decode_jpeg(stripped, path, [&](const JpegShape& shape) {
        check_pixel_limit(path, shape.width, shape.height, options);
        check_stored_bytes(path, shape.width, shape.height, shape.channels, 1, format, file_bytes,
                           options);
      });
      if (decoded) return std::move(*decoded);
      drop_jpeg_metadata(stripped);
    }
    memory.emplace(stripped.data(), stripped.size());
  }
  // A TIFF or PNG whose ICC profile the library would read out of bounds is
  // decoded from memory with that profile hidden (the pixels do not use it).
  if (const auto unsound = unsound_icc_profiles(path, format); !unsound.empty()) {
    read_whole_file(path, file_bytes, stripped);
    hide_icc_profiles(stripped, unsound, format);
    memory.emplace(stripped.data(), stripped.size());
  }
  // A run-length BMP whose last row ends with an end of line before the end
  // of the bitmap, given to the library with the end one pair early
  // (io/images/bmp_pixels.hpp).
  if (format == "bmp" && bmp_is_run_length(std::span(head.bytes.data(), head.size))) {
    read_whole_file(path, file_bytes, stripped);
    if (end_run_length_at_last_row(stripped)) memory.emplace(stripped.data(), stripped.size());
  }
  // Every BMP of a grey palette is read as RGB and made grey once read: the
  // library makes 8-bit ones grey itself, but not 1- or 4-bit ones (a
  // black-and-white BMP would be colour where a 1-bit PNG, TIFF or PBM is
  // grey), and its reading of a run-length one as grey writes three bytes a
  // pixel into rows of one (levels of the pixels after it, and past the row).
  const bool palette_grey =
      format == "bmp" && bmp_palette_is_grey(std::span(head.bytes.data(), head.size));
  if (palette_grey) config.attribute("bmp:monochrome_detect", 0);
  // A GIF whose first picture's codes do not decode, of which the library's
  // decoder makes pixels up in silence (io/images/gif_coded_data.hpp).
  if (format == "gif") {
    ByteSource file(path);
    if (const std::string fault = gif_coded_data_fault(file); !fault.empty()) fail(path, fault);
  }
  // A PGM or PPM of a maximum value the format does not have (0, or over
  // 65535), which the library reads all the same (every sample its brightest).
  if (format == "pnm") {
    const std::string bad = pnm_bad_maximum(std::span(head.bytes.data(), head.size));
    if (!bad.empty()) fail(path, "corrupt image: " + bad);
  }
  // A TIFF of 1-bit samples that leaves BitsPerSample to its default, given
  // to the library with the field (io/images/tiff_bits.hpp).
  if (format == "tiff" && tiff_lacks_bits_per_sample(path)) {
    if (!memory) read_whole_file(path, file_bytes, stripped);
    add_one_bit_per_sample(stripped);
    memory.emplace(stripped.data(), stripped.size());
  }
  // A CMYK TIFF read as its inks, converted here (io/images/tiff_cmyk.hpp);
  // a palette TIFF whose colormap the library reads into other colours than
  // libtiff does, given to it with the map rewritten
  // (io/images/tiff_colormap.hpp). Both found before the rewrite, which moves
  // the bytes `file` may read.
  bool cmyk = false;
  if (format == "tiff") {
    ByteSource file =
        memory ? ByteSource(std::span<const unsigned char>(stripped)) : ByteSource(path);
    const TiffCmyk kind = tiff_cmyk(file);
    if (kind == TiffCmyk::Unreadable) {
      fail(path,
           "unsupported image: a tiled JPEG-compressed CMYK TIFF, whose tiles the image "
           "library writes past its buffer");
    }
    cmyk = kind == TiffCmyk::Inks;
    if (cmyk) config.attribute("oiio:RawColor", 1);
    if (tiff_colormap_misread(file)) {
      if (!memory) read_whole_file(path, file_bytes, stripped);
      rewrite_tiff_colormap(stripped);
      memory.emplace(stripped.data(), stripped.size());
    }
  }
  if (format.empty()) {
    input = OIIO::ImageInput::open(path.string(), &config);  // every reader may try
  } else {
    // Only the reader of the format the signature shows.
    input = create_reader(format, path, head, file_bytes);  // (an EXR's: see create_reader)
    OIIO::ImageSpec opened;
    if (input && memory && !input->set_ioproxy(&*memory)) {
      fail(path, "cannot read image: " + one_line(input->geterror()));
    }
    if (input && !input->open(path.string(), opened, config)) {
      const std::string cause = one_line(input->geterror());
      // The library's WebP reader says "Couldn't decode" of a file cut short; its RIFF
      // header says how long it is.
      if (format == "webp" && head.size >= 12 && little32(head.bytes.data() + 4) > file_bytes - 8) {
        fail(path, "corrupt or truncated image: its RIFF header says " +
                       std::to_string(std::uint64_t{little32(head.bytes.data() + 4)} + 8) +
                       " bytes, and the file has " + std::to_string(file_bytes));
      }
      fail(path, "cannot read image: " + cause);
    }
  }
  if (!input) {
    std::string cause = one_line(OIIO::geterror());
    if (cause.find("not exist") != std::string::npos) cause = "no such file";
    fail(path, "cannot read image: " + cause);
  }
  OIIO::ImageSpec spec = input->spec();
  spec.alpha_channel = alpha_channel_of(spec);
  // A grey Targa whose descriptor gives its second channel alpha bits (the
  // library names it G, and no alpha).
  if (std::string_view(input->format_name()) == "targa" && spec.nchannels == 2 && head.size > 17 &&
      (head.bytes[17] & 0x0F) != 0) {
    spec.alpha_channel = 1;
  }
  if (spec.width <= 0 || spec.height <= 0 || spec.nchannels <= 0) {
    fail(path, "image has zero size");
  }
  if (spec.depth > 1) fail(path, "volume images are not supported");
  // LogLuv (SGILog) TIFFs hold floats the image library decodes only to 8-bit
  // RGB: counting those would misstate the file, so it is refused.
  if (format == "tiff" && spec.get_int_attribute("tiff:Compression", 0) >= 34676 &&
      spec.get_int_attribute("tiff:Compression", 0) <= 34677) {
    fail(path,
         "cannot read image: an SGILog (LogLuv) TIFF, whose floats the image library reads only "
         "as 8-bit values (save it as a float TIFF or OpenEXR)");
  }
  // Rows are asked for by their coordinates, y .. y + height - 1: they must be ints.
  if (std::int64_t{spec.y} + spec.height > std::numeric_limits<int>::max() ||
      std::int64_t{spec.x} + spec.width > std::numeric_limits<int>::max()) {
    fail(path, "corrupt image: its pixels are placed at " + std::to_string(spec.x) + "," +
                   std::to_string(spec.y) + ", past the largest coordinate");
  }
  const auto pixels = std::uint64_t(spec.width) * std::uint64_t(spec.height);
  check_pixel_limit(path, static_cast<std::uint32_t>(spec.width),
                    static_cast<std::uint32_t>(spec.height), options);
  // (After the pixel limit: the bytes counted then fit in 64 bits.)
  if (format == "dpx") check_dpx_element(path, head, file_bytes, spec);
  // Decoders read every channel of the file as stored, whatever is asked for.
  std::uint64_t sample_bytes = spec.format.size();
  for (const OIIO::TypeDesc& t : spec.channelformats)
    sample_bytes = std::max<std::uint64_t>(sample_bytes, t.size());
  check_stored_bytes(path, static_cast<std::uint32_t>(spec.width),
                     static_cast<std::uint32_t>(spec.height), spec.nchannels, sample_bytes,
                     input->format_name(), file_bytes, options,
                     spec.get_int_attribute("tiff:Compression", 1));

  // The image library gives every GIF an alpha channel; one whose first
  // picture has no transparent colour is RGB.
  const bool opaque_gif =
      format == "gif" && !gif_may_be_transparent(std::span(head.bytes.data(), head.size));
  // The colour under a GIF's transparent pixels, which the library reads as black.
  const std::optional<GifTransparency> under_transparent =
      format == "gif" && spec.nchannels == 4 && spec.format == OIIO::TypeDesc::UINT8
          ? gif_transparency(std::span(head.bytes.data(), head.size))
          : std::nullopt;
  // A 32-bit BMP's bytes as its header lays them out (io/images/bmp_pixels.hpp):
  // read whole where they are reordered, alpha may be kept or the fourth byte
  // must be looked at to know whether it is alpha, then arranged.
  const std::optional<BmpPixels> bmp = format == "bmp" && spec.nchannels == 4
                                           ? bmp_pixels(std::span(head.bytes.data(), head.size))
                                           : std::nullopt;
  if (bmp && !bmp->unsupported.empty()) fail(path, bmp->unsupported);
  const bool bmp_whole = bmp && (bmp->reordered() || bmp->fourth != BmpPixels::Fourth::Unused);
  const bool no_alpha = opaque_gif || (bmp && bmp->fourth == BmpPixels::Fourth::Unused);
  // A CMYK TIFF the library leaves as inks (more than four channels: it converts
  // four alone) would be counted as inks; alpha among the first three channels
  // leaves two colour channels (neither grey nor RGB). Both are refused.
  if (format == "tiff" && spec.get_int_attribute("tiff:PhotometricInterpretation", 0) == 5 &&
      !spec.channelnames.empty() && spec.channelnames[0].rfind("ink", 0) == 0) {
    fail(path, "unsupported image: a CMYK TIFF of " + std::to_string(spec.nchannels) +
                   " channels, which the image library does not convert to RGB (it converts "
                   "four-channel CMYK)");
  }
  // libtiff converts Y'CbCr of 8 bits to RGB, and refuses deeper samples
  // with no cause the library passes on.
  const int photometric =
      format == "tiff" ? spec.get_int_attribute("tiff:PhotometricInterpretation", -1) : -1;
  if (photometric == 6 && spec.get_int_attribute("oiio:BitsPerSample", 8) > 8) {
    fail(path, "cannot read image: a Y'CbCr TIFF of " +
                   std::to_string(spec.get_int_attribute("oiio:BitsPerSample", 8)) +
                   "-bit samples, which the image library does not read (it converts 8-bit "
                   "Y'CbCr to RGB)");
  }
  if (spec.alpha_channel == 2) {
    fail(path,
         "unsupported image: its third channel is alpha, after two colour channels (neither "
         "grey nor RGB)");
  }
  // Alpha as the second channel: a grey image with alpha, whatever follows.
  if (cmyk && spec.nchannels != 4) {
    fail(path, "unsupported image: a CMYK TIFF the image library reads as " +
                   std::to_string(spec.nchannels) + " channels");
  }
  const ChannelLayout layout =
      cmyk                      ? ChannelLayout::RGB
      : spec.alpha_channel == 1 ? ChannelLayout::Grey
      : bmp_whole               ? ChannelLayout::RGBA
      : spec.nchannels >= 4 && options.alpha && !no_alpha && spec.alpha_channel >= 3
          ? ChannelLayout::RGBA
      : spec.nchannels >= 3 ? ChannelLayout::RGB
                            : ChannelLayout::Grey;
  const PixelFormat pixel_format{layout, sample_type(spec.format)};
  Image image;
  try {
    image = Image::allocate(static_cast<std::uint32_t>(spec.width),
                            static_cast<std::uint32_t>(spec.height), pixel_format);
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory for " + std::to_string(pixels * pixel_bytes(pixel_format)) +
                   " bytes of pixels");
  }
  image.codec = input->format_name();
  image.alpha = spec.alpha_channel >= 0 && layout != ChannelLayout::RGBA && !no_alpha && !cmyk;
  // (A CMYK TIFF's notes are those of the RGB the library would give.)
  OIIO::ImageSpec noted = spec;
  if (cmyk) {
    noted.nchannels = 3;
    noted.alpha_channel = -1;
    noted.default_channel_names();
  }
  image.notes = sample_notes(noted, layout, no_alpha);
  // CIE L*a*b* (8), which libtiff gives as RGB of 8 bits (it refuses ICC's and ITU's).
  if (photometric == 8) {
    image.notes.push_back(
        "its L*a*b* samples are read as the 8-bit RGB the image library "
        "converts them to");
  }
  // A GIF whose first picture leaves part of its screen uncovered: that part,
  // which holds no colour of the file, is counted as read (transparent black).
  if (format == "gif") {
    if (const std::optional<GifPlace> place =
            gif_first_place(std::span(head.bytes.data(), head.size));
        place && place->uncovered() > 0) {
      image.notes.push_back(
          "its first picture covers " + std::to_string(place->width) + "x" +
          std::to_string(place->height) + " of its " + std::to_string(place->screen_width) + "x" +
          std::to_string(place->screen_height) + " screen: the other " +
          std::to_string(place->uncovered()) +
          " pixels, which hold no colour of the file, are counted as transparent black");
    }
  }
  // A camera raw's pixels come turned upright (LibRaw): its tag no longer holds.
  const int orientation = format == "raw" ? 1 : spec.get_int_attribute("Orientation", 1);
  image.orientation =
      static_cast<std::uint8_t>(orientation >= 1 && orientation <= 8 ? orientation : 1);
  // The library's WebP reader reads no EXIF: its orientation from the file.
  if (format == "webp" && image.orientation == 1) image.orientation = webp_orientation(path);
  const int channels = static_cast<int>(channel_count(layout));
  // Readers of some formats report success on a file that ends before its
  // pixels and leave the rest of the rows unwritten (TIFF, OpenEXR and DPX:
  // valgrind, fuzz_image 2026-12-03); a recycled buffer would then count
  // another image's pixels. JPEG's decoder writes every row and PNG's fails.
  if (format != "jpeg" && format != "png")
    std::memset(image.storage.data(), 0, image.storage.size());
  // What libtiff's decoders conceal, heard while the pixels are read.
  std::optional<TiffDamage> tiff_damage;
  if (format == "tiff") tiff_damage.emplace();
  bool ok = false;
  try {
    // Samples stored as they are wanted are read straight into the rows
    // (TypeDesc::UNKNOWN); asking for a type makes OpenImageIO convert
    // through a buffer of some 64 MB, whatever the image's size.
    if (cmyk) {
      Image inks =
          Image::allocate(image.width, image.height, {ChannelLayout::RGBA, pixel_format.sample});
      std::memset(inks.storage.data(), 0, inks.storage.size());
      ok = read_rows(*input, spec, 4, type_desc(pixel_format.sample), inks);
      if (ok) cmyk_to_rgb(inks.view(), image);
    } else if (under_transparent) {
      Image rgba =
          Image::allocate(image.width, image.height, {ChannelLayout::RGBA, SampleType::U8});
      ok = read_rows(*input, spec, 4, OIIO::TypeDesc::UINT8, rgba);
      if (ok) colour_transparent_pixels(rgba, *under_transparent, image);
    } else {
      // A colour image's alpha, wherever the file stores it (R, G, B, X, A).
      ok = read_rows(*input, spec, channels, type_desc(pixel_format.sample), image,
                     layout == ChannelLayout::RGBA && !bmp_whole ? spec.alpha_channel : -1);
    }
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory to decode it");
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt image: the decoder failed: ") + e.what());
  }
  // A plain PBM without whitespace between its pixels, which the library's
  // reader does not take (io/images/pnm_samples.hpp).
  if ((!ok || input->has_error()) && format == "pnm" && head.size >= 2 && head.bytes[1] == '1' &&
      read_plain_pbm(path, image)) {
    (void)input->geterror();
    ok = true;
  }
  if (!ok || input->has_error()) {
    std::string cause = one_line(input->geterror());
    // The library's PNM reader says "unknown decoder error" of a file cut short.
    if (format == "pnm") {
      const std::string short_by =
          pnm_raster_shortfall(std::span(head.bytes.data(), head.size), file_bytes);
      if (!short_by.empty()) cause = short_by;
    }
    fail(path, "corrupt or truncated image: " + cause);
  }
  if (tiff_damage && !tiff_damage->said().empty()) {
    fail(path, "corrupt image: " + one_line(tiff_damage->said()));
  }
  if (tiff_damage && !tiff_damage->left_over().empty()) image.warning = tiff_damage->left_over();
  // A grey TIFF whose 0 is white (MinIsWhite): the library turns 8-bit
  // samples (and 1, 2 and 4 bits, widened to 8) the other way up, not those
  // it reads as 16-bit (9 to 16 bits), which are turned here as libtiff shows
  // them: the stored level v of b bits, found again from the library's
  // floor(v * 65535 / (2^b - 1)), as the level 2^b - 1 - v would read.
  if (format == "tiff" && spec.get_int_attribute("tiff:PhotometricInterpretation", 1) == 0 &&
      layout == ChannelLayout::Grey && pixel_format.sample == SampleType::U16) {
    const int bits = std::clamp(spec.get_int_attribute("oiio:BitsPerSample", 16), 9, 16);
    const std::uint64_t most = (std::uint64_t{1} << bits) - 1;
    for (std::uint32_t y = 0; y < image.height; ++y) {
      auto* row = reinterpret_cast<std::uint16_t*>(image.storage.data() +
                                                   static_cast<std::size_t>(y) * image.stride);
      for (std::uint32_t x = 0; x < image.width; ++x) {
        const std::uint64_t stored = (row[x] * most + 65534) / 65535;
        row[x] = static_cast<std::uint16_t>((most - stored) * 65535 / most);
      }
    }
  }
  if (bmp_whole) {
    const bool alpha = arrange_bmp_pixels(*bmp, options.alpha, image);
    image.alpha = alpha && image.format.layout != ChannelLayout::RGBA;
  }
  if (palette_grey && image.format == PixelFormat{ChannelLayout::RGB, SampleType::U8}) {
    for (std::uint32_t y = 0; y < image.height; ++y) {
      auto* row = reinterpret_cast<unsigned char*>(image.storage.data()) +
                  static_cast<std::size_t>(y) * image.stride;
      for (std::uint32_t x = 0; x < image.width; ++x) row[x] = row[3 * std::size_t{x}];
    }
    image.format.layout = ChannelLayout::Grey;
  }
  // A still WebP's colour under alpha as stored, not premultiplied (an animated
  // one's first frame stays as the library gives it: a note says so).
  if (format == "webp" && spec.alpha_channel >= 0) {
    std::vector<unsigned char> bytes;
    read_whole_file(path, file_bytes, bytes);
    if (!webp_colour_as_stored(bytes, image)) {
      image.notes.push_back(
          "its colour under alpha is counted premultiplied by the alpha (an animated WebP's, "
          "as the image library decodes it)");
    }
  }
  // Multipage TIFFs, multipart EXRs, animated GIFs and WebPs: only the first
  // page (frame) is read. An animated PNG's other frames the library does not
  // see: its animation control chunk tells.
  if (format == "tiff" || format == "openexr" || format == "gif" || format == "webp") {
    image.more_pages = input->seek_subimage(1, 0);
  } else if (format == "png") {
    image.more_pages = png_is_animated(path);
  }
  (void)input->geterror();
  input->close();
  // 16-bit PNM samples as stored (io/images/pnm_samples.hpp); a file the
  // library read but this cannot keeps the library's.
  if (format == "pnm" && pixel_format.sample == SampleType::U16) {
    (void)read_deep_pnm_samples(path, std::span(head.bytes.data(), head.size), image);
  }
  return image;
}

}  // namespace

bool has_image_extension(const std::filesystem::path& path, FormatSet formats) {
  const std::string format = format_of_extension(lower_extension(path));
  // Videos are the video reader's: the image library's FFmpeg reader is not a still format.
  if (format.empty() || format == "ffmpeg") return false;
  return formats == FormatSet::All || common_formats().count(format) != 0;
}

}  // namespace gpuhist::images
