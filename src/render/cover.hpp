// "Cover" scaling: the frame scaled by the smallest factor that covers the
// target, centred, and sampled at the nearest source pixel of each target
// pixel's centre. The part of the frame shown is exact, not rounded to whole
// source pixels: a 3x2 frame covering 250x100 shows each of its rows as 50
// target rows. A frame of pixels that are not square (an anamorphic video's,
// `aspect` num:den their width over their height) covers as it is shown:
// num/den times as wide.
#pragma once

#include <cstdint>

namespace gpuhist::render {

class Cover {
 public:
  Cover(std::uint64_t frame_width, std::uint64_t frame_height, std::uint32_t width,
        std::uint32_t height, std::uint32_t aspect_num = 1, std::uint32_t aspect_den = 1) {
    // As shown: frame_width * num wide and frame_height * den high, whose
    // coordinates are the frame's times num across and times den down.
    if (aspect_num == 0 || aspect_den == 0) aspect_num = aspect_den = 1;
    div_x_ = aspect_num;
    div_y_ = aspect_den;
    frame_width *= aspect_num;
    frame_height *= aspect_den;
    if (frame_width * height > frame_height * width) {
      // Scaled by height / frame_height: columns cropped on both sides.
      step_x_ = step_y_ = frame_height;
      over_ = 2ULL * height;
      x0_ = frame_width * height - width * frame_height;
    } else {
      // Scaled by width / frame_width: rows cropped above and below.
      step_x_ = step_y_ = frame_width;
      over_ = 2ULL * width;
      y0_ = frame_height * width - height * frame_width;
    }
  }
  // The frame column that target column x shows, and the frame row of target
  // row y: the source coordinate of the target pixel's centre, rounded down.
  [[nodiscard]] std::uint32_t source_x(std::uint32_t x) const {
    return static_cast<std::uint32_t>((x0_ + (2 * std::uint64_t{x} + 1) * step_x_) /
                                      (over_ * div_x_));
  }
  [[nodiscard]] std::uint32_t source_y(std::uint32_t y) const {
    return static_cast<std::uint32_t>((y0_ + (2 * std::uint64_t{y} + 1) * step_y_) /
                                      (over_ * div_y_));
  }

 private:
  // Source coordinate of a target coordinate t: (offset + (2t + 1) * step) /
  // (over * div), div turning the shown frame's coordinates into the frame's.
  std::uint64_t step_x_ = 1, step_y_ = 1, over_ = 2, x0_ = 0, y0_ = 0, div_x_ = 1, div_y_ = 1;
};

}  // namespace gpuhist::render
