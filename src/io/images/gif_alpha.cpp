#include "io/images/gif_alpha.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {

bool gif_may_be_transparent(std::span<const unsigned char> head) {
  // Header (6 bytes), logical screen descriptor (7: the screen's width and
  // height first), then the global colour table where its flag is set:
  // 3 * 2^(size + 1) bytes.
  if (head.size() < 13 || std::memcmp(head.data(), "GIF8", 4) != 0) return true;
  const std::uint32_t screen_width = little16(&head[6]);
  const std::uint32_t screen_height = little16(&head[8]);
  std::size_t at = 13;
  if ((head[10] & 0x80) != 0) at += std::size_t{3} << ((head[10] & 7) + 1);
  // Blocks up to the first image descriptor (0x2C): extensions (0x21, a
  // label, then sub-blocks of a size byte and that many bytes, to a zero).
  bool transparent = false;
  while (at < head.size()) {
    const unsigned char introducer = head[at];
    if (introducer == 0x3B) return false;  // the end: no picture
    if (introducer == 0x2C) {
      // The image's place and size: one smaller than the screen leaves the
      // rest of the first frame transparent, as the image library reads it.
      if (at + 9 > head.size()) return true;
      const bool covers = little16(&head[at + 1]) == 0 && little16(&head[at + 3]) == 0 &&
                          little16(&head[at + 5]) == screen_width &&
                          little16(&head[at + 7]) == screen_height;
      return transparent || !covers;
    }
    if (introducer != 0x21 || at + 1 >= head.size()) return true;
    const unsigned char label = head[at + 1];
    at += 2;
    if (label == 0xF9) {
      // Graphic Control Extension: size 4, packed fields (bit 0: transparent colour).
      if (at + 1 >= head.size() || head[at] != 4) return true;
      transparent = (head[at + 1] & 1) != 0;
    }
    while (at < head.size() && head[at] != 0) at += std::size_t{head[at]} + 1;
    ++at;  // the zero that ends the sub-blocks
  }
  return true;
}

}  // namespace gpuhist::images
