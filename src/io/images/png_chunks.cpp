#include "io/images/png_chunks.hpp"

#include <cstring>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {

bool PngChunk::is(const char (&name)[5]) const noexcept {
  return std::memcmp(type.data(), name, 4) == 0;
}

PngChunks::PngChunks(ByteSource& source) : source_(source) {
  static constexpr unsigned char kSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::array<unsigned char, 8> head{};
  png_ = source_.read(0, 8, head.data()) && std::memcmp(head.data(), kSignature, 8) == 0;
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

}  // namespace gpuhist::images
