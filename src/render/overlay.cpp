#include <algorithm>
#include <cstring>

#include "gpuhist/error.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist {

OverlayLayout overlay_layout(std::uint32_t width, std::uint32_t height) {
  OverlayLayout layout;
  const std::uint32_t half = width / 2;
  layout.panel_width = std::max(1U, half * 9 / 10);
  layout.panel_height = std::max(1U, height / 4);
  layout.left_x = (half - std::min(half, layout.panel_width)) / 2;
  layout.right_x = half + layout.left_x;
  layout.y = height - layout.panel_height;
  return layout;
}

Picture compose_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height,
                        const Picture& rgb_panel, const Picture& luminance_panel,
                        std::uint32_t background) {
  validate(frame);
  if (frame.format.layout != ChannelLayout::RGB || frame.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "overlay frames must be 8- or 16-bit RGB");
  }
  Picture out{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)};
  // "Cover": the largest centred crop of the frame with the picture's aspect ratio.
  const std::uint64_t fw = frame.width, fh = frame.height;
  std::uint64_t crop_w = fw, crop_h = fh;
  if (fw * height > fh * width) {
    crop_w = std::max<std::uint64_t>(1, fh * width / height);
  } else {
    crop_h = std::max<std::uint64_t>(1, fw * height / width);
  }
  const std::uint64_t x0 = (fw - crop_w) / 2, y0 = (fh - crop_h) / 2;
  const bool deep = frame.format.sample == SampleType::U16;
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::uint64_t sy = y0 + (2 * std::uint64_t{y} + 1) * crop_h / (2ULL * height);
    const std::byte* row = frame.row(static_cast<std::uint32_t>(sy));
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::uint64_t sx = x0 + (2 * std::uint64_t{x} + 1) * crop_w / (2ULL * width);
      std::uint8_t* px = &out.rgba[(std::size_t{y} * width + x) * 4];
      for (std::size_t c = 0; c < 3; ++c) {
        if (deep) {
          std::uint16_t v = 0;
          std::memcpy(&v, row + (sx * 3 + c) * 2, 2);
          px[c] = static_cast<std::uint8_t>(v >> 8);
        } else {
          px[c] = static_cast<std::uint8_t>(row[sx * 3 + c]);
        }
      }
      px[3] = 0xFF;
    }
  }
  const OverlayLayout layout = overlay_layout(width, height);
  const std::uint8_t bg[3] = {static_cast<std::uint8_t>(background >> 16),
                              static_cast<std::uint8_t>(background >> 8),
                              static_cast<std::uint8_t>(background)};
  for (const auto& [panel, left] :
       {std::pair{&rgb_panel, layout.left_x}, std::pair{&luminance_panel, layout.right_x}}) {
    for (std::uint32_t y = 0; y < std::min(panel->height, height - layout.y); ++y) {
      for (std::uint32_t x = 0; x < std::min(panel->width, width - left); ++x) {
        const std::uint8_t* p = &panel->rgba[(std::size_t{y} * panel->width + x) * 4];
        std::uint8_t* px = &out.rgba[(std::size_t{layout.y + y} * width + left + x) * 4];
        const bool is_background = p[0] == bg[0] && p[1] == bg[1] && p[2] == bg[2];
        for (std::size_t c = 0; c < 3; ++c) {
          px[c] = is_background ? static_cast<std::uint8_t>((px[c] + p[c]) / 2) : p[c];
        }
      }
    }
  }
  return out;
}

}  // namespace gpuhist
