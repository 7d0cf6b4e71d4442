#include "io/images/gif_alpha.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {

namespace {

// What the blocks up to the first image descriptor say of the first picture.
struct FirstPicture {
  bool read = false;           // the header and blocks up to the descriptor are in `head`
  bool picture = false;        // there is one (no trailer before it)
  bool covers = false;         // it covers the whole screen
  std::uint32_t left = 0, top = 0, width = 0, height = 0;  // its place
  int transparent = -1;        // its transparent index, or -1
  std::size_t table = 0;       // where its colour table starts (0: none in `head`)
  std::size_t table_size = 0;  // entries
  std::size_t descriptor = 0;  // where its image descriptor starts
  std::uint32_t screen_width = 0, screen_height = 0;
};

FirstPicture first_picture(std::span<const unsigned char> head) {
  FirstPicture out;
  // Header (6 bytes), logical screen descriptor (7: the screen's width and
  // height first), then the global colour table where its flag is set:
  // 3 * 2^(size + 1) bytes.
  if (head.size() < 13 || std::memcmp(head.data(), "GIF8", 4) != 0) return out;
  const std::uint32_t screen_width = little16(&head[6]);
  const std::uint32_t screen_height = little16(&head[8]);
  out.screen_width = screen_width;
  out.screen_height = screen_height;
  std::size_t at = 13;
  if ((head[10] & 0x80) != 0) {
    out.table = at;
    out.table_size = std::size_t{1} << ((head[10] & 7) + 1);
    at += 3 * out.table_size;
  }
  // Blocks up to the first image descriptor (0x2C): extensions (0x21, a
  // label, then sub-blocks of a size byte and that many bytes, to a zero).
  while (at < head.size()) {
    const unsigned char introducer = head[at];
    if (introducer == 0x3B) {  // the end: no picture
      out.read = true;
      return out;
    }
    if (introducer == 0x2C) {
      // The image's place and size, then its own colour table where its flag is set.
      if (at + 10 > head.size()) return out;
      out.read = out.picture = true;
      out.descriptor = at;
      out.left = little16(&head[at + 1]);
      out.top = little16(&head[at + 3]);
      out.width = little16(&head[at + 5]);
      out.height = little16(&head[at + 7]);
      out.covers =
          out.left == 0 && out.top == 0 && out.width == screen_width && out.height == screen_height;
      if ((head[at + 9] & 0x80) != 0) {
        out.table = at + 10;
        out.table_size = std::size_t{1} << ((head[at + 9] & 7) + 1);
      }
      return out;
    }
    if (introducer != 0x21 || at + 1 >= head.size()) return out;
    const unsigned char label = head[at + 1];
    at += 2;
    if (label == 0xF9) {
      // Graphic Control Extension: size 4, packed fields (bit 0: transparent
      // colour), delay (2 bytes), the transparent index.
      if (at + 4 >= head.size() || head[at] != 4) return out;
      out.transparent = (head[at + 1] & 1) != 0 ? head[at + 4] : -1;
    }
    while (at < head.size() && head[at] != 0) at += std::size_t{head[at]} + 1;
    ++at;  // the zero that ends the sub-blocks
  }
  return out;
}

}  // namespace

bool gif_may_be_transparent(std::span<const unsigned char> head) {
  const FirstPicture first = first_picture(head);
  if (!first.read) return true;
  // One smaller than the screen leaves the rest of the first frame
  // transparent, as the image library reads it.
  return first.picture && (first.transparent >= 0 || !first.covers);
}

std::uint64_t GifPlace::uncovered() const {
  const auto overlap = [](std::uint64_t from, std::uint64_t size, std::uint64_t screen) {
    return from >= screen ? 0 : std::min(size, screen - from);
  };
  return std::uint64_t{screen_width} * screen_height -
         overlap(left, width, screen_width) * overlap(top, height, screen_height);
}

std::optional<GifPlace> gif_first_place(std::span<const unsigned char> head) {
  const FirstPicture first = first_picture(head);
  if (!first.picture) return std::nullopt;
  return GifPlace{first.left,   first.top,          first.width,
                  first.height, first.screen_width, first.screen_height};
}

std::optional<std::size_t> gif_first_descriptor(std::span<const unsigned char> file) {
  const FirstPicture first = first_picture(file);
  if (!first.picture) return std::nullopt;
  return first.descriptor;
}

std::optional<GifTransparency> gif_transparency(std::span<const unsigned char> head) {
  const FirstPicture first = first_picture(head);
  const auto index = static_cast<std::size_t>(first.transparent);
  if (!first.picture || first.transparent < 0 || first.table == 0 || index >= first.table_size ||
      first.table + 3 * index + 3 > head.size()) {
    return std::nullopt;
  }
  const unsigned char* entry = &head[first.table + 3 * index];
  return GifTransparency{
      first.left, first.top, first.width, first.height, {entry[0], entry[1], entry[2]}};
}

}  // namespace gpuhist::images
