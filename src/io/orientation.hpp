// The eight turns and mirrorings of an image (a video's display matrix, a
// photograph's EXIF orientation) and an image turned by one. Part of the
// gpuhist::io library; the image-file module builds it too.
#pragma once

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

// What shows upright an image whose EXIF orientation (1 to 8) is `exif`:
// 6 is a clockwise quarter turn, 5 a transpose, 7 a transverse.
[[nodiscard]] Orientation upright_of_exif(int exif);

// `how` as a clockwise turn (0, 90, 180 or 270 degrees) and whether the
// turned frame is then mirrored left to right: hflip is {0, true}, vflip
// {180, true}, transpose=clock {90, false}, cclock_flip {90, true}.
struct TurnAndMirror {
  int clockwise = 0;
  bool mirrored = false;
};
[[nodiscard]] TurnAndMirror turn_and_mirror(Orientation how);

// Writes `from` as `how` places it into `to`, (re)allocated at the size it
// comes to with `from`'s format. Packed pixels of 1 to 16 bytes.
void turn(const ImageView& from, Orientation how, Image& to);

}  // namespace gpuhist::io
