// Showing a video frame as its stream asks: the turn (and mirroring) a
// stream's display matrix declares, read as the ffmpeg command line reads
// it, and a frame turned by it. Part of the gpuhist::io library.
#pragma once

#include <cstdint>

#include "gpuhist/image.hpp"

namespace gpuhist::io {

// Where pixel (x, y) of a w x h frame goes: x' = flip_x ? w-1-x : x,
// y' = flip_y ? h-1-y : y, then (y', x') if `transpose`, else (x', y').
// The eight turns and mirrorings of a frame; ffmpeg's transpose=clock is
// {true, false, true}, cclock {true, true, false}, hflip {false, true, false}.
struct Orientation {
  bool transpose = false;
  bool flip_x = false;
  bool flip_y = false;
  [[nodiscard]] bool identity() const noexcept { return !transpose && !flip_x && !flip_y; }
};

// The clockwise turn, 0, 90, 180 or 270 degrees, that shows frames upright,
// as the ffmpeg command line reads `matrix` (a display matrix, 9 values;
// nullptr for none): the rotation it describes rounded to whole degrees, and
// 0 for angles that are not a multiple of 90 within 1 degree.
[[nodiscard]] int upright_turn(const std::int32_t* matrix);

// What the ffmpeg command line does to show frames of `matrix` upright: the
// turn, and the mirroring a mirrored matrix adds (transpose=cclock_flip and
// clock_flip, hflip and vflip, as ffmpeg 5.1 picks them).
[[nodiscard]] Orientation upright_orientation(const std::int32_t* matrix);

// `how` as a clockwise turn (0, 90, 180 or 270 degrees) and whether the
// turned frame is then mirrored left to right: hflip is {0, true}, vflip
// {180, true}, transpose=clock {90, false}, cclock_flip {90, true}.
struct TurnAndMirror {
  int clockwise = 0;
  bool mirrored = false;
};
[[nodiscard]] TurnAndMirror turn_and_mirror(Orientation how);

// Writes `from` as `how` places it into `to`, (re)allocated at the size it
// comes to with `from`'s format. Packed pixels of 1 to 8 bytes.
void turn(const ImageView& from, Orientation how, Image& to);

}  // namespace gpuhist::io
