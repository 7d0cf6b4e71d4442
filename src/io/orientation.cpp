#include "io/orientation.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpuhist::io {

Orientation upright_of_exif(int exif) {
  switch (exif) {
    case 2:  // mirrored left to right
      return {false, true, false};
    case 3:  // a half turn
      return {false, true, true};
    case 4:  // mirrored top to bottom
      return {false, false, true};
    case 5:  // (x, y) shown at (y, x)
      return {true, false, false};
    case 6:  // a clockwise quarter turn: (x, y) at (h - 1 - y, x)
      return {true, false, true};
    case 7:  // (x, y) at (h - 1 - y, w - 1 - x)
      return {true, true, true};
    case 8:  // an anticlockwise quarter turn: (x, y) at (y, w - 1 - x)
      return {true, true, false};
    default:
      return {};
  }
}

TurnAndMirror turn_and_mirror(Orientation how) {
  // Each of transpose, flip_x and flip_y reflects the frame: an odd number of
  // them mirrors it. What is left once a mirroring is taken off is a turn.
  const bool mirrored = how.transpose != (how.flip_x != how.flip_y);
  if (!how.transpose) {
    // flip_x alone is hflip (no turn); flip_y alone vflip, hflip of a half turn.
    return {how.flip_y ? 180 : 0, mirrored};
  }
  // {true, false, true} is clock, {true, true, false} cclock; a transpose
  // alone is hflip of clock, with both flips hflip of cclock.
  return {how.flip_x ? 270 : 90, mirrored};
}

namespace {

// Copies each pixel of `from` to where `how` puts it in `to`, in tiles of
// 32x32 pixels so that rows of both stay in the cache.
template <std::size_t Bytes>
void place_pixels(const ImageView& from, Orientation how, Image& to) {
  constexpr std::uint32_t kTile = 32;
  const std::uint32_t w = from.width, h = from.height;
  for (std::uint32_t ty = 0; ty < h; ty += kTile) {
    for (std::uint32_t tx = 0; tx < w; tx += kTile) {
      const std::uint32_t ye = std::min(h, ty + kTile), xe = std::min(w, tx + kTile);
      for (std::uint32_t y = ty; y < ye; ++y) {
        const auto* row = static_cast<const std::byte*>(from.data) + from.stride * y;
        const std::uint32_t yf = how.flip_y ? h - 1 - y : y;
        for (std::uint32_t x = tx; x < xe; ++x) {
          const std::uint32_t xf = how.flip_x ? w - 1 - x : x;
          const std::uint32_t u = how.transpose ? yf : xf;
          const std::uint32_t v = how.transpose ? xf : yf;
          std::memcpy(to.storage.data() + to.stride * v + std::size_t{u} * Bytes,
                      row + std::size_t{x} * Bytes, Bytes);
        }
      }
    }
  }
}

}  // namespace

void turn(const ImageView& from, Orientation how, Image& to) {
  const std::uint32_t w = how.transpose ? from.height : from.width;
  const std::uint32_t h = how.transpose ? from.width : from.height;
  if (to.width != w || to.height != h || to.format != from.format) {
    to = Image::allocate(w, h, from.format);
  }
  switch (pixel_bytes(from.format)) {
    case 1:
      place_pixels<1>(from, how, to);
      break;
    case 2:
      place_pixels<2>(from, how, to);
      break;
    case 3:
      place_pixels<3>(from, how, to);
      break;
    case 4:
      place_pixels<4>(from, how, to);
      break;
    case 6:
      place_pixels<6>(from, how, to);
      break;
    case 8:
      place_pixels<8>(from, how, to);
      break;
    case 12:
      place_pixels<12>(from, how, to);
      break;
    case 16:
      place_pixels<16>(from, how, to);
      break;
    default:
      throw std::invalid_argument("turn: unsupported pixel size");
  }
}

}  // namespace gpuhist::io
