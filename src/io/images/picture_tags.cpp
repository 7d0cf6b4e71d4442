#include "io/images/picture_tags.hpp"

#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "io/images/byte_order.hpp"
#include "io/images/jpeg_decoder.hpp"
#include "io/images/png_chunks.hpp"
#include "io/images/tiff_layout.hpp"
#include "io/jpeg_segments.hpp"

namespace gpuhist::images {
namespace {

// An EXIF or ICC chunk is read whole up to this size; a larger one is left.
constexpr std::uint32_t kLargestChunk = 16U << 20;

bool starts_with(std::span<const unsigned char> data, std::string_view prefix) {
  return data.size() >= prefix.size() && std::memcmp(data.data(), prefix.data(), prefix.size()) == 0;
}

// `profile` cut to the length its header gives, where it holds that much and
// says it is one; false (and `profile` left) where it does not.
bool whole_profile(std::vector<unsigned char>& profile) {
  if (profile.size() < 132 || std::memcmp(profile.data() + 36, "acsp", 4) != 0) return false;
  const std::uint32_t length = big32(profile.data());
  if (length < 132 || length > profile.size()) return false;
  profile.resize(length);  // padding after it (some writers') left out
  return true;
}

}  // namespace

std::vector<unsigned char> jpeg_head(const std::filesystem::path& path) {
  constexpr std::size_t kLongest = std::size_t{256} << 20;
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> head(std::size_t{64} << 10);
  std::size_t have = 0;
  for (;;) {
    in.read(reinterpret_cast<char*>(head.data() + have),
            static_cast<std::streamsize>(head.size() - have));
    have += static_cast<std::size_t>(in.gcount());
    const std::span<const unsigned char> bytes(head.data(), have);
    if (have < 2 || bytes[0] != 0xFF || bytes[1] != 0xD8) return {};
    const io::JpegHeader header = io::jpeg_header(bytes);
    if (io::jpeg_frame_header(header) != nullptr || !header.cut || have < head.size() ||
        head.size() >= kLongest) {
      head.resize(have);
      return head;
    }
    head.resize(head.size() * 2);
  }
}

PictureTags jpeg_picture_tags(const std::filesystem::path& path) {
  PictureTags tags;
  const std::vector<unsigned char> head = jpeg_head(path);
  if (head.empty()) return tags;
  const io::JpegHeader header = io::jpeg_header(head);
  tags.subsampling = io::jpeg_subsampling(head, header);
  // ICC_PROFILE chunks: "ICC_PROFILE\0", the chunk's number (from 1), their count, its bytes.
  std::map<unsigned, std::span<const unsigned char>> chunks;
  unsigned count = 0;
  bool chunks_agree = true;
  bool exif_seen = false;  // the first Exif segment is the one readers take
  for (const io::JpegSegment& s : header.segments) {
    if (s.end - s.begin < 4) continue;
    const std::span<const unsigned char> data(head.data() + s.begin + 4, s.end - s.begin - 4);
    if (s.marker == 0xE1 && starts_with(data, std::string_view("Exif\0\0", 6))) {
      const ExifIfd0 exif = exif_ifd0(data);
      if (!std::exchange(exif_seen, true)) tags.orientation = exif.orientation;
      tags.other_metadata = tags.other_metadata || exif.beyond_orientation;
    } else if (s.marker == 0xE2 && starts_with(data, std::string_view("ICC_PROFILE\0", 12)) &&
               data.size() > 14) {
      const unsigned number = data[12];
      if (count != 0 && data[13] != count) chunks_agree = false;
      count = data[13];
      if (!chunks.emplace(number, data.subspan(14)).second) chunks_agree = false;
    } else if (s.marker == 0xE0 && starts_with(data, std::string_view("JFIF\0", 5)) &&
               data.size() >= 12 && (data[7] == 1 || data[7] == 2) &&
               tags.resolution_unit.empty()) {
      // Version (2 bytes), units (1: per inch, 2: per centimetre), densities.
      const std::uint32_t x = big16(&data[8]), y = big16(&data[10]);
      if (x != 0 && y != 0) {
        tags.resolution_unit = data[7] == 1 ? "in" : "cm";
        tags.x_resolution = static_cast<float>(x);
        tags.y_resolution = static_cast<float>(y);
      }
    } else if (s.marker == 0xE1 || s.marker == 0xED || s.marker == 0xFE) {
      tags.other_metadata = true;  // XMP, IPTC (Photoshop's APP13), a comment
    }
  }
  if (chunks_agree && count != 0 && chunks.size() == count && chunks.begin()->first == 1 &&
      chunks.rbegin()->first == count) {
    for (const auto& [number, bytes] : chunks) {
      tags.icc_profile.insert(tags.icc_profile.end(), bytes.begin(), bytes.end());
    }
  }
  if (!chunks.empty() && !whole_profile(tags.icc_profile)) {
    tags.icc_profile.clear();
    tags.damaged_profile = true;
  }
  return tags;
}

PictureTags webp_picture_tags(const std::filesystem::path& path) {
  PictureTags tags;
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 12> riff{};
  in.read(reinterpret_cast<char*>(riff.data()), riff.size());
  if (in.gcount() != 12 || std::memcmp(riff.data(), "RIFF", 4) != 0 ||
      std::memcmp(riff.data() + 8, "WEBP", 4) != 0) {
    return tags;
  }
  const auto read_chunk = [&](std::uint32_t size, std::vector<unsigned char>& data,
                              std::size_t offset) {
    data.resize(offset + std::size_t{size});
    in.read(reinterpret_cast<char*>(data.data() + offset), size);
    return static_cast<std::uint32_t>(in.gcount()) == size;
  };
  // Chunks: a four-character code, a little-endian size, the data padded to
  // an even length; within the RIFF's own length, and metadata only in the
  // extended format (a first chunk VP8X), as WebP's readers take them.
  const std::uint64_t riff_end = 8 + std::uint64_t{little32(riff.data() + 4)};
  std::array<unsigned char, 8> header{};
  for (std::uint64_t at = 12; at + 8 <= riff_end;) {
    in.seekg(static_cast<std::streamoff>(at));
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    if (in.gcount() != 8) return tags;
    if (at == 12 && std::memcmp(header.data(), "VP8X", 4) != 0) return tags;
    const std::uint32_t size = little32(header.data() + 4);
    if (at + 8 + size > riff_end) return tags;
    if (std::memcmp(header.data(), "EXIF", 4) == 0 && size >= 8 && size <= kLargestChunk) {
      // The TIFF-format EXIF data, which some writers give JPEG's prefix too.
      std::vector<unsigned char> data;
      if (read_chunk(size, data, 6)) {
        std::memcpy(data.data(), "Exif\0\0", 6);
        const bool prefixed = std::memcmp(data.data() + 6, "Exif\0\0", 6) == 0;
        const ExifIfd0 exif =
            exif_ifd0(std::span<const unsigned char>(data).subspan(prefixed ? 6 : 0));
        tags.orientation = exif.orientation;
        tags.other_metadata = tags.other_metadata || exif.beyond_orientation;
      }
    } else if (std::memcmp(header.data(), "ICCP", 4) == 0 && size >= 128 &&
               size <= kLargestChunk) {
      if (!read_chunk(size, tags.icc_profile, 0) || !whole_profile(tags.icc_profile)) {
        tags.icc_profile.clear();
        tags.damaged_profile = true;
      }
    } else if (std::memcmp(header.data(), "XMP ", 4) == 0) {
      tags.other_metadata = true;
    }
    at += 8 + std::uint64_t{size} + (size & 1U);
  }
  return tags;
}

UnreadMetadata unread_metadata(const std::filesystem::path& path) {
  UnreadMetadata found;
  ByteSource file(path);
  if (const std::optional<TiffLayout> layout = TiffLayout::read(file)) {
    const std::optional<TiffDirectory> first = layout->directory(file, layout->first_directory());
    if (!first) return found;
    found.gps = first->find(tiff_tag::kGpsIfd) != nullptr;
    found.xmp = first->find(tiff_tag::kXmp) != nullptr;
    const std::vector<std::uint64_t> exif_at =
        layout->integers(file, *first, tiff_tag::kExifIfd, 1);
    if (exif_at.empty() || exif_at[0] == 0) return found;
    const std::optional<TiffDirectory> exif = layout->directory(file, exif_at[0]);
    // ISOSpeedRatings / PhotographicSensitivity: SHORT values, the first kept.
    const TiffEntry* iso = exif ? exif->find(tiff_tag::kIsoSpeed) : nullptr;
    if (iso != nullptr && iso->type == tiff_type::kShort) {
      if (const std::vector<std::uint64_t> v = layout->integers(file, *iso); !v.empty()) {
        found.iso = static_cast<std::uint32_t>(v[0]);
      }
    }
    return found;
  }
  // iTXt's data starts with its keyword.
  static constexpr std::string_view kXmp("XML:com.adobe.xmp\0", 18);
  std::array<unsigned char, kXmp.size()> keyword{};
  PngChunks chunks(file);
  while (const std::optional<PngChunk> chunk = chunks.next()) {
    if (chunk->is("IEND")) break;
    if (chunk->is("iTXt") && file.read(chunk->data_at(), keyword.size(), keyword.data()) &&
        std::memcmp(keyword.data(), kXmp.data(), kXmp.size()) == 0) {
      found.xmp = true;
      break;
    }
  }
  return found;
}

std::uint8_t webp_orientation(const std::filesystem::path& path) {
  return webp_picture_tags(path).orientation;
}

}  // namespace gpuhist::images
