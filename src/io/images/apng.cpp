#include "io/images/apng.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

#include "io/images/byte_order.hpp"
#include "io/images/png_chunks.hpp"

namespace gpuhist::images {

bool png_is_animated(const std::filesystem::path& path) {
  // Walked by the chunks' headers up to the image data, however large the
  // chunks before it.
  ByteSource file(path);
  PngChunks chunks(file);
  std::uint32_t frames = 0;
  bool animation = false;
  bool default_is_a_frame = false;
  while (const std::optional<PngChunk> chunk = chunks.next()) {
    if (chunk->is("IDAT")) {
      return animation && (frames > 1 || (frames == 1 && !default_is_a_frame));
    }
    if (chunk->is("IEND") || chunk->length > PngChunk::kMostLength) return false;
    std::array<unsigned char, 4> count{};
    if (chunk->is("acTL") && chunk->length >= 8 && file.read(chunk->data_at(), 4, count.data())) {
      animation = true;
      frames = big32(count.data());
    } else if (chunk->is("fcTL")) {
      default_is_a_frame = true;
    }
  }
  return false;
}

}  // namespace gpuhist::images
