// "Cover" scaling: the largest centred crop of a frame with the target's aspect
// ratio, sampled at the nearest source pixel of each target pixel's centre.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpuhist::render {

class Cover {
 public:
  Cover(std::uint64_t frame_width, std::uint64_t frame_height, std::uint32_t width,
        std::uint32_t height)
      : width_(width), height_(height) {
    crop_w_ = frame_width;
    crop_h_ = frame_height;
    if (frame_width * height > frame_height * width) {
      crop_w_ = std::max<std::uint64_t>(1, frame_height * width / height);
    } else {
      crop_h_ = std::max<std::uint64_t>(1, frame_width * height / width);
    }
    x0_ = (frame_width - crop_w_) / 2;
    y0_ = (frame_height - crop_h_) / 2;
  }
  // The frame column that target column x shows, and the frame row of target row y.
  [[nodiscard]] std::uint32_t source_x(std::uint32_t x) const {
    return static_cast<std::uint32_t>(x0_ + (2 * std::uint64_t{x} + 1) * crop_w_ / (2ULL * width_));
  }
  [[nodiscard]] std::uint32_t source_y(std::uint32_t y) const {
    return static_cast<std::uint32_t>(y0_ +
                                      (2 * std::uint64_t{y} + 1) * crop_h_ / (2ULL * height_));
  }

 private:
  std::uint32_t width_, height_;
  std::uint64_t crop_w_ = 0, crop_h_ = 0, x0_ = 0, y0_ = 0;
};

}  // namespace gpuhist::render
