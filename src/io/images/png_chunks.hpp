// The chunks of a PNG (or APNG) file, in order, by their headers alone: a
// 4-byte big-endian length, a 4-byte type, the data, a CRC. Read through a
// ByteSource, so never from outside the file. Every PNG walker of the
// readers and writers uses it: the chunk-length check, the ICC guard, the
// APNG test, the XMP search, the writer's Exif and density fixes, and the
// io layer's test of a PNG it reads without the module (io/plain_png.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "io/images/byte_source.hpp"

namespace gpuhist::images {

struct PngChunk {
  // PNG's largest length (2^31 - 1): past it, a chunk's end cannot be found.
  static constexpr std::uint64_t kMostLength = 0x7FFFFFFF;

  std::uint64_t at = 0;      // its length field's first byte
  std::uint64_t length = 0;  // its data's bytes, as declared
  std::array<unsigned char, 4> type{};

  // Whether its type is `name` ("IHDR", "iCCP", ...).
  [[nodiscard]] bool is(const char (&name)[5]) const noexcept;
  [[nodiscard]] std::uint64_t data_at() const noexcept { return at + 8; }
  // The byte after its CRC, where the next chunk starts.
  [[nodiscard]] std::uint64_t end() const noexcept { return at + 12 + length; }
};

class PngChunks {
 public:
  // The chunks of the PNG in `source`, which must outlive this.
  explicit PngChunks(ByteSource& source);

  // Whether the source starts with PNG's signature.
  [[nodiscard]] bool is_png() const noexcept { return png_; }
  // The next chunk's header; nullopt without the signature, with fewer than
  // 8 bytes left, or after a chunk whose length is over kMostLength (which
  // is given, for the caller to refuse or pass over).
  [[nodiscard]] std::optional<PngChunk> next();

 private:
  ByteSource& source_;
  bool png_ = false;
  std::uint64_t at_ = 8;
};

// Whether `chunk`'s CRC (over its type and data) matches its bytes in
// `source`; true for an ancillary chunk (its type's first letter lower
// case), which a decoder passes over when it does not, and where the bytes
// cannot be read (a check of its length says so).
[[nodiscard]] bool png_chunk_crc_matches(ByteSource& source, const PngChunk& chunk);

}  // namespace gpuhist::images
