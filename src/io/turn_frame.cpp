#include "io/turn_frame.hpp"

extern "C" {
#include <libavutil/display.h>
}

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpuhist::io {

namespace {

// The clockwise angle ffmpeg turns frames of `matrix` by, whole degrees in
// [0, 360); NaN for a degenerate matrix. av_display_rotation_get gives the
// counter-clockwise angle; ffmpeg's autorotation turns by its negation.
double turn_angle(const std::int32_t* matrix) {
  const double angle = av_display_rotation_get(matrix);
  if (!std::isfinite(angle)) return angle;
  double theta = -std::round(angle);
  theta -= 360.0 * std::floor(theta / 360.0 + 0.9 / 360.0);
  return std::fabs(theta) < 1.0 ? 0.0 : theta;
}

// The multiple of 90 degrees within 1 degree of `theta`; 0 for none.
int right_angle(double theta) {
  for (const int turn : {90, 180, 270}) {
    if (std::fabs(theta - turn) < 1.0) return turn;
  }
  return 0;
}

}  // namespace

int upright_turn(const std::int32_t* matrix) {
  return matrix == nullptr ? 0 : right_angle(turn_angle(matrix));
}

Orientation upright_orientation(const std::int32_t* matrix) {
  if (matrix == nullptr) return {};
  const double theta = turn_angle(matrix);
  // m[0], m[3]: where the frame's x axis goes; m[4]: the y axis's scale.
  switch (right_angle(theta)) {
    case 90:  // transpose=cclock_flip where the matrix mirrors, else clock
      return matrix[3] > 0 ? Orientation{true, false, false} : Orientation{true, false, true};
    case 180:  // hflip and vflip, each where the matrix mirrors that axis
      return {false, matrix[0] < 0, matrix[4] < 0};
    case 270:  // transpose=clock_flip where the matrix mirrors, else cclock
      return matrix[3] < 0 ? Orientation{true, true, true} : Orientation{true, true, false};
    default:  // vflip where the matrix mirrors its y axis and turns by none
      return {false, false, theta == 0.0 && matrix[4] < 0};
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
    default:
      throw std::invalid_argument("turn: unsupported pixel size");
  }
}

}  // namespace gpuhist::io
