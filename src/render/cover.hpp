// "Cover" scaling: the frame scaled by the smallest factor that covers the
// target, centred, and sampled at the nearest source pixel of each target
// pixel's centre. The part of the frame shown is exact, not rounded to whole
// source pixels: a 3x2 frame covering 250x100 shows each of its rows as 50
// target rows.
#pragma once

#include <cstdint>

namespace gpuhist::render {

class Cover {
 public:
  Cover(std::uint64_t frame_width, std::uint64_t frame_height, std::uint32_t width,
        std::uint32_t height) {
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
    return static_cast<std::uint32_t>((x0_ + (2 * std::uint64_t{x} + 1) * step_x_) / over_);
  }
  [[nodiscard]] std::uint32_t source_y(std::uint32_t y) const {
    return static_cast<std::uint32_t>((y0_ + (2 * std::uint64_t{y} + 1) * step_y_) / over_);
  }

 private:
  // Source coordinate of a target coordinate t: (offset + (2t + 1) * step) / over.
  std::uint64_t step_x_ = 1, step_y_ = 1, over_ = 2, x0_ = 0, y0_ = 0;
};

}  // namespace gpuhist::render
