// The framing of a TIFF, classic or BigTIFF, in either byte order (and of
// the Exif blocks written as one): its header, a directory's entries and an
// entry's values, read through a ByteSource, so never from outside the file.
// Every TIFF walker of the readers uses it: the strip checks, the ICC guard,
// the metadata the image library does not read, the 1-bit and colormap
// fixes, and a JPEG's Exif orientation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

// Tags the walkers look for (TIFF 6.0, TIFF/EP and Exif 2.3 numbers).
namespace tiff_tag {
inline constexpr std::uint16_t kImageWidth = 256;
inline constexpr std::uint16_t kImageLength = 257;
inline constexpr std::uint16_t kBitsPerSample = 258;
inline constexpr std::uint16_t kCompression = 259;
inline constexpr std::uint16_t kPhotometric = 262;
inline constexpr std::uint16_t kStripOffsets = 273;
inline constexpr std::uint16_t kOrientation = 274;
inline constexpr std::uint16_t kSamplesPerPixel = 277;
inline constexpr std::uint16_t kRowsPerStrip = 278;
inline constexpr std::uint16_t kStripByteCounts = 279;
inline constexpr std::uint16_t kPlanarConfig = 284;
inline constexpr std::uint16_t kColorMap = 320;
inline constexpr std::uint16_t kTileWidth = 322;
inline constexpr std::uint16_t kTileLength = 323;
inline constexpr std::uint16_t kTileOffsets = 324;
inline constexpr std::uint16_t kTileByteCounts = 325;
inline constexpr std::uint16_t kXmp = 700;
inline constexpr std::uint16_t kExifIfd = 34665;
inline constexpr std::uint16_t kIccProfile = 34675;
inline constexpr std::uint16_t kGpsIfd = 34853;
inline constexpr std::uint16_t kIsoSpeed = 34855;
}  // namespace tiff_tag

// Field types (TIFF 6.0 and BigTIFF).
namespace tiff_type {
inline constexpr std::uint16_t kShort = 3;
inline constexpr std::uint16_t kLong = 4;
}  // namespace tiff_type

// One directory entry.
struct TiffEntry {
  std::uint16_t tag = 0;
  std::uint16_t type = 0;
  std::uint64_t count = 0;
  std::uint64_t at = 0;           // the entry's first byte in the source
  std::uint64_t values_at = 0;    // its values' first byte: in the entry where they fit
  std::uint64_t value_bytes = 0;  // count x the type's size; 0 for a type TIFF does not define
};

struct TiffDirectory {
  std::uint64_t at = 0;
  std::uint64_t declared = 0;      // the entries its count says it holds
  std::vector<TiffEntry> entries;  // those within the source (none past `most`), in order
  std::uint64_t next = 0;          // the next directory's offset; 0 for none or past the end

  [[nodiscard]] bool whole() const noexcept { return entries.size() == declared; }
  // The first entry of `tag` (libtiff keeps the first of duplicates), or null.
  [[nodiscard]] const TiffEntry* find(std::uint16_t tag) const noexcept;
};

class TiffLayout {
 public:
  // The layout the source's header declares ("II" or "MM", then 42 or 43);
  // nullopt for bytes that do not start a TIFF.
  [[nodiscard]] static std::optional<TiffLayout> read(ByteSource& source);

  [[nodiscard]] bool little() const noexcept { return little_; }
  [[nodiscard]] bool big_tiff() const noexcept { return big_; }
  [[nodiscard]] std::uint64_t first_directory() const noexcept { return first_; }
  [[nodiscard]] std::size_t entry_bytes() const noexcept { return big_ ? 20 : 12; }
  [[nodiscard]] std::size_t count_bytes() const noexcept { return big_ ? 8 : 2; }
  // Counts and offsets: 4 bytes, or 8 in a BigTIFF.
  [[nodiscard]] std::size_t word() const noexcept { return big_ ? 8 : 4; }

  // An unsigned integer of `bytes` bytes (at most 8) at `p`, in the file's order.
  [[nodiscard]] std::uint64_t integer(const unsigned char* p, std::size_t bytes) const noexcept;
  // `value` written at `p` in `bytes` bytes, in the file's order.
  void put(unsigned char* p, std::size_t bytes, std::uint64_t value) const noexcept;

  // The directory at `at`: nullopt where its count lies past the end; no
  // entries where it declares more than `most`; as many as lie within the
  // source otherwise.
  [[nodiscard]] std::optional<TiffDirectory> directory(ByteSource& source, std::uint64_t at,
                                                       std::uint64_t most = 65535) const;
  // An entry's values as integers, for the unsigned integer types (BYTE,
  // SHORT, LONG, IFD, LONG8, IFD8); empty for another type, more than `most`
  // values, or values past the end.
  [[nodiscard]] std::vector<std::uint64_t> integers(ByteSource& source, const TiffEntry& entry,
                                                    std::uint64_t most = 1U << 20) const;
  // The values of `tag` in `directory` (its first entry, as libtiff keeps
  // it) as integers() gives them; empty where the directory has none.
  [[nodiscard]] std::vector<std::uint64_t> integers(ByteSource& source,
                                                    const TiffDirectory& directory,
                                                    std::uint16_t tag,
                                                    std::uint64_t most = 1U << 20) const;
  // An entry's values as stored; empty where they lie past the end or are
  // more than `most` bytes.
  [[nodiscard]] std::vector<unsigned char> values(ByteSource& source, const TiffEntry& entry,
                                                  std::uint64_t most) const;

 private:
  bool little_ = true;
  bool big_ = false;
  std::uint64_t first_ = 0;
};

}  // namespace gpuhist::images
