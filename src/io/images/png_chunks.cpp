#include "io/images/png_chunks.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "io/file_signature.hpp"
#include "io/images/byte_order.hpp"

namespace gpuhist::images {

bool PngChunk::is(const char (&name)[5]) const noexcept {
  return std::memcmp(type.data(), name, 4) == 0;
}

PngChunks::PngChunks(ByteSource& source) : source_(source) {
  std::array<unsigned char, std::size(io::kPngSignature)> head{};
  png_ = source_.read(0, head.size(), head.data()) && io::is_png(head);
}

std::optional<PngChunk> PngChunks::next() {
  std::array<unsigned char, 8> header{};
  if (!png_ || !source_.read(at_, 8, header.data())) return std::nullopt;
  PngChunk chunk;
  chunk.at = at_;
  chunk.length = big32(header.data());
  std::memcpy(chunk.type.data(), &header[4], 4);
  // No chunk after one whose length PNG does not allow.
  at_ = chunk.length > PngChunk::kMostLength ? source_.size() : chunk.end();
  return chunk;
}

bool png_chunk_crc_matches(ByteSource& source, const PngChunk& chunk) {
  if ((chunk.type[0] & 0x20) != 0) return true;  // ancillary
  constexpr std::uint64_t kPart = std::uint64_t{1} << 20;
  uLong crc = crc32(0L, chunk.type.data(), static_cast<uInt>(chunk.type.size()));
  std::vector<unsigned char> part;
  for (std::uint64_t done = 0; done < chunk.length;) {
    const auto n = static_cast<std::size_t>(std::min(kPart, chunk.length - done));
    if (!source.read(chunk.data_at() + done, n, part)) return true;
    crc = crc32(crc, part.data(), static_cast<uInt>(n));
    done += n;
  }
  unsigned char stored[4];
  if (!source.read(chunk.data_at() + chunk.length, sizeof stored, stored)) return true;
  return big32(stored) == static_cast<std::uint32_t>(crc);
}

}  // namespace gpuhist::images
