#include "io/images/gif_alpha.hpp"

#include <cstddef>
#include <cstring>

namespace gpuhist::images {

bool gif_may_be_transparent(std::span<const unsigned char> head) {
  // Header (6 bytes), logical screen descriptor (7), then the global colour
  // table where its flag is set: 3 * 2^(size + 1) bytes.
  if (head.size() < 13 || std::memcmp(head.data(), "GIF8", 4) != 0) return true;
  std::size_t at = 13;
  if ((head[10] & 0x80) != 0) at += std::size_t{3} << ((head[10] & 7) + 1);
  // Blocks up to the first image descriptor (0x2C): extensions (0x21, a
  // label, then sub-blocks of a size byte and that many bytes, to a zero).
  while (at < head.size()) {
    const unsigned char introducer = head[at];
    if (introducer == 0x2C || introducer == 0x3B) return false;  // an image, or the end
    if (introducer != 0x21 || at + 1 >= head.size()) return true;
    const unsigned char label = head[at + 1];
    at += 2;
    if (label == 0xF9) {
      // Graphic Control Extension: size 4, packed fields (bit 0: transparent colour).
      if (at + 1 >= head.size() || head[at] != 4) return true;
      return (head[at + 1] & 1) != 0;
    }
    while (at < head.size() && head[at] != 0) at += std::size_t{head[at]} + 1;
    ++at;  // the zero that ends the sub-blocks
  }
  return true;
}

}  // namespace gpuhist::images
