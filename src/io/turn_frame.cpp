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

}  // namespace gpuhist::io
