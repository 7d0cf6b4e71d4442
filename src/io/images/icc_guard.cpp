#include "io/images/icc_guard.hpp"

#include <zlib.h>

#include <array>
#include <cstring>
#include <optional>
#include <set>

#include "io/images/byte_order.hpp"
#include "io/images/png_chunks.hpp"
#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

constexpr std::uint16_t kHiddenTag = 65000;   // a private tag no reader knows
constexpr std::size_t kMostDirectories = 1024;
// libpng's default limit on a chunk's memory (PNG_USER_CHUNK_MALLOC_MAX):
// a larger profile it refuses itself.
constexpr std::size_t kMostPngProfile = 8000000;

std::vector<std::uint64_t> unsound_in_tiff(ByteSource& file) {
  std::vector<std::uint64_t> found;
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout) return found;
  std::set<std::uint64_t> seen;
  std::uint64_t at = layout->first_directory();
  for (std::size_t n = 0; at != 0 && n < kMostDirectories; ++n) {
    if (!seen.insert(at).second) break;  // a loop of directories
    const std::optional<TiffDirectory> directory = layout->directory(file, at);
    if (!directory || !directory->whole()) break;
    for (const TiffEntry& entry : directory->entries) {
      if (entry.tag != tiff_tag::kIccProfile) continue;
      // Bytes, as the tag is written; another type libtiff would convert:
      // hidden rather than followed.
      const bool bytewise =
          entry.type == 1 || entry.type == 2 || entry.type == 6 || entry.type == 7;
      bool sound = bytewise;
      if (bytewise && entry.count <= file.size()) {
        // Out of the file: libtiff reads no profile either (empty is sound).
        sound = icc_profile_is_sound(layout->values(file, entry, file.size()));
      }
      if (!sound) found.push_back(entry.at);
    }
    at = directory->next;
  }
  return found;
}

// The profile libpng takes from an iCCP chunk's zlib stream: the length its
// first 4 bytes declare (at most `most`), inflated as far as that and no
// further. It needs neither the stream's end nor its checksum, and passes
// over what the stream holds past the profile. Empty where the stream gives
// fewer bytes (libpng takes no profile then).
std::vector<unsigned char> png_profile(std::span<const unsigned char> in, std::size_t most) {
  std::vector<unsigned char> out;
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return out;
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  std::size_t wanted = 4;  // the declared length, once read
  bool declared = false;
  int status = Z_OK;
  while (out.size() < wanted && status == Z_OK) {
    const std::size_t done = out.size();
    out.resize(wanted);
    z.next_out = out.data() + done;
    z.avail_out = static_cast<uInt>(wanted - done);
    status = inflate(&z, Z_SYNC_FLUSH);
    out.resize(wanted - z.avail_out);
    if (!declared && out.size() >= 4) {
      declared = true;
      wanted = big32(out.data());
      if (wanted > most || wanted < 4) {
        out.clear();
        break;
      }
    }
  }
  inflateEnd(&z);
  if (!declared || out.size() != wanted) out.clear();
  return out;
}

std::vector<std::uint64_t> unsound_in_png(ByteSource& file) {
  std::vector<std::uint64_t> found;
  PngChunks chunks(file);
  std::vector<unsigned char> data;
  while (const std::optional<PngChunk> chunk = chunks.next()) {
    if (chunk->length > PngChunk::kMostLength) break;
    // A profile comes before the pixels: libpng takes none after them.
    if (chunk->is("IEND") || chunk->is("IDAT")) break;
    if (chunk->is("iCCP") && chunk->length > 0 && chunk->length <= kMostPngProfile &&
        file.read(chunk->data_at(), static_cast<std::size_t>(chunk->length), data)) {
      // A name of 1 to 79 bytes, its NUL, the compression method, the profile.
      const auto* end = static_cast<const unsigned char*>(std::memchr(data.data(), 0, data.size()));
      if (end != nullptr && end + 2 <= data.data() + data.size()) {
        const std::size_t start = static_cast<std::size_t>(end - data.data()) + 2;
        const std::vector<unsigned char> profile =
            png_profile(std::span<const unsigned char>(data).subspan(start), kMostPngProfile);
        if (!profile.empty() && !icc_profile_is_sound(profile)) found.push_back(chunk->at);
      }
    }
  }
  return found;
}

}  // namespace

bool icc_profile_is_sound(std::span<const unsigned char> p) {
  const std::uint64_t n = p.size();
  // Rejected at its header: nothing past it is read.
  if (n < 132 || big32(&p[36]) != 0x61637370U /* acsp */ || big32(&p[0]) != n) return true;
  const std::uint32_t tags = big32(&p[128]);
  for (std::uint64_t i = 0; i < tags; ++i) {
    const std::uint64_t at = 132 + 12 * i;
    if (at + 12 > n) return true;  // the table ends: the library stops
    const std::uint32_t offset = big32(&p[at + 4]);
    const std::uint32_t size = big32(&p[at + 8]);
    // The library's own test, in 32 bits: where it fails, it stops.
    if (static_cast<std::uint32_t>(offset + size) > n) return true;
    // Past it, the tag's type (4 bytes) and data are read.
    if (std::uint64_t{offset} + size > n || std::uint64_t{offset} + 4 > n) return false;
    const unsigned char* type = &p[offset];
    if (std::memcmp(type, "text", 4) == 0 && size < 8) return false;
    if (std::memcmp(type, "desc", 4) == 0 && size < 12) return false;
    if (std::memcmp(type, "mluc", 4) == 0) {
      std::uint64_t where = std::uint64_t{offset} + 8;
      if (where + 8 > n) return true;
      const std::uint32_t records = big32(&p[where]);
      if (big32(&p[where + 4]) != 12) return true;
      where += 8;
      for (std::uint32_t r = 0; r < records; ++r, where += 12) {
        if (where + 12 > n) return true;
        if (big16(&p[where]) != ('e' << 8 | 'n')) continue;
        // English: its UTF-16 string, from the tag's start (the library adds
        // the two offsets in 32 bits; taken whole here, which is stricter).
        const std::uint64_t length = big32(&p[where + 4]) / 2 * 2;
        const std::uint64_t start = std::uint64_t{offset} + big32(&p[where + 8]);
        if (start > n || length > n - start) return false;
        break;
      }
    }
  }
  return true;
}

std::vector<std::uint64_t> unsound_icc_profiles(const std::filesystem::path& path,
                                                const std::string& format) {
  if (format != "tiff" && format != "png") return {};
  ByteSource file(path);
  return format == "tiff" ? unsound_in_tiff(file) : unsound_in_png(file);
}

void hide_icc_profiles(std::vector<unsigned char>& bytes, const std::vector<std::uint64_t>& where,
                       const std::string& format) {
  for (const std::uint64_t at : where) {
    if (format == "tiff" && at + 2 <= bytes.size()) {
      const bool little = bytes.size() >= 2 && bytes[0] == 'I';
      bytes[at + (little ? 0 : 1)] = static_cast<unsigned char>(kHiddenTag & 0xFF);
      bytes[at + (little ? 1 : 0)] = static_cast<unsigned char>(kHiddenTag >> 8);
    } else if (format == "png" && at + 12 <= bytes.size()) {
      const std::uint32_t length = big32(&bytes[at]);
      if (length > bytes.size() - at - 12) continue;
      // A private ancillary chunk ("icCP"), which libpng passes over.
      std::memcpy(&bytes[at + 4], "icCP", 4);
      const auto crc = static_cast<std::uint32_t>(
          crc32(crc32(0L, nullptr, 0), &bytes[at + 4], static_cast<uInt>(length) + 4));
      unsigned char* out = &bytes[at + 8 + length];
      out[0] = static_cast<unsigned char>(crc >> 24);
      out[1] = static_cast<unsigned char>(crc >> 16);
      out[2] = static_cast<unsigned char>(crc >> 8);
      out[3] = static_cast<unsigned char>(crc);
    }
  }
}

}  // namespace gpuhist::images
