// Showing a video frame as its stream asks: the turn (and mirroring) a
// stream's display matrix declares, read as the ffmpeg command line reads
// it. Part of the gpuhist::io library.
#pragma once

#include <cstdint>

#include "io/orientation.hpp"

namespace gpuhist::io {

// The clockwise turn, 0, 90, 180 or 270 degrees, that shows frames upright,
// as the ffmpeg command line reads `matrix` (a display matrix, 9 values;
// nullptr for none): the rotation it describes rounded to whole degrees, and
// 0 for angles that are not a multiple of 90 within 1 degree.
[[nodiscard]] int upright_turn(const std::int32_t* matrix);

// What the ffmpeg command line does to show frames of `matrix` upright: the
// turn, and the mirroring a mirrored matrix adds (transpose=cclock_flip and
// clock_flip, hflip and vflip, as ffmpeg 5.1 picks them).
[[nodiscard]] Orientation upright_orientation(const std::int32_t* matrix);

}  // namespace gpuhist::io
