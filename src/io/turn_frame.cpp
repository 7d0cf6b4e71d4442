#include "io/turn_frame.hpp"

extern "C" {
#include <libavutil/display.h>
}

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpuhist::io {

int upright_turn(const std::int32_t* matrix) {
  if (matrix == nullptr) return 0;
  // av_display_rotation_get gives the counter-clockwise angle (NaN for a
  // degenerate matrix); ffmpeg's autorotation turns by its negation.
  const double angle = av_display_rotation_get(matrix);
  if (!std::isfinite(angle)) return 0;
  double theta = -std::round(angle);
  theta -= 360.0 * std::floor(theta / 360.0 + 0.9 / 360.0);
  for (const int turn : {90, 180, 270}) {
    if (std::fabs(theta - turn) < 1.0) return turn;
  }
  return 0;
}

namespace {

// Copies pixel (x, y) of `from` to where the turn puts it in `to`, in tiles
// of 32x32 pixels so that rows of both stay in the cache.
template <std::size_t Bytes>
void turn_pixels(const ImageView& from, int degrees, Image& to) {
  constexpr std::uint32_t kTile = 32;
  const std::uint32_t w = from.width, h = from.height;
  for (std::uint32_t ty = 0; ty < h; ty += kTile) {
    for (std::uint32_t tx = 0; tx < w; tx += kTile) {
      const std::uint32_t ye = std::min(h, ty + kTile), xe = std::min(w, tx + kTile);
      for (std::uint32_t y = ty; y < ye; ++y) {
        const auto* row = static_cast<const std::byte*>(from.data) + from.stride * y;
        for (std::uint32_t x = tx; x < xe; ++x) {
          // Clockwise: 90 sends (x, y) to (h-1-y, x); 180 to (w-1-x, h-1-y);
          // 270 to (y, w-1-x).
          std::uint32_t u = 0, v = 0;
          if (degrees == 90) {
            u = h - 1 - y;
            v = x;
          } else if (degrees == 180) {
            u = w - 1 - x;
            v = h - 1 - y;
          } else {
            u = y;
            v = w - 1 - x;
          }
          std::memcpy(to.storage.data() + to.stride * v + std::size_t{u} * Bytes,
                      row + std::size_t{x} * Bytes, Bytes);
        }
      }
    }
  }
}

}  // namespace

void turn(const ImageView& from, int degrees, Image& to) {
  if (degrees != 90 && degrees != 180 && degrees != 270) {
    throw std::invalid_argument("turn: degrees must be 90, 180 or 270");
  }
  const bool across = degrees != 180;
  const std::uint32_t w = across ? from.height : from.width;
  const std::uint32_t h = across ? from.width : from.height;
  if (to.width != w || to.height != h || to.format != from.format) {
    to = Image::allocate(w, h, from.format);
  }
  switch (pixel_bytes(from.format)) {
    case 1:
      turn_pixels<1>(from, degrees, to);
      break;
    case 2:
      turn_pixels<2>(from, degrees, to);
      break;
    case 3:
      turn_pixels<3>(from, degrees, to);
      break;
    case 4:
      turn_pixels<4>(from, degrees, to);
      break;
    case 6:
      turn_pixels<6>(from, degrees, to);
      break;
    case 8:
      turn_pixels<8>(from, degrees, to);
      break;
    default:
      throw std::invalid_argument("turn: unsupported pixel size");
  }
}

}  // namespace gpuhist::io
