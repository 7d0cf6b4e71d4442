// Turning a video frame upright: the rotation a stream's display matrix
// declares, and the frame turned by it. Part of the gpuhist::io library.
#pragma once

#include <cstdint>

#include "gpuhist/image.hpp"

namespace gpuhist::io {

// The clockwise turn, 0, 90, 180 or 270 degrees, that shows frames upright,
// as the ffmpeg command line reads `matrix` (a display matrix, 9 values;
// nullptr for none): the rotation it describes rounded to whole degrees, and
// 0 for angles that are not a multiple of 90 within 1 degree.
[[nodiscard]] int upright_turn(const std::int32_t* matrix);

// Writes `from` turned clockwise by `degrees` (90, 180 or 270) into `to`,
// (re)allocated at the turned size with `from`'s format. Packed pixels of 1
// to 8 bytes.
void turn(const ImageView& from, int degrees, Image& to);

}  // namespace gpuhist::io
