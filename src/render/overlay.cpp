#include <algorithm>
#include <cstring>

#include "gpuhist/error.hpp"
#include "gpuhist/render.hpp"
#include "render/cover.hpp"

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

void validate_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height) {
  validate(frame);
  if (frame.format.layout != ChannelLayout::RGB || frame.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "overlay frames must be 8- or 16-bit RGB");
  }
  if (width < 2 || height < 2 || width > 16384 || height > 16384) {
    throw Error(ErrorKind::InvalidArgument, "overlay size must be 2x2 to 16384x16384");
  }
}

Picture compose_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height,
                        const Picture& rgb_panel, const Picture& luminance_panel,
                        std::uint32_t background) {
  validate_overlay(frame, width, height);
  Picture out{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)};
  const render::Cover cover(frame.width, frame.height, width, height);
  const bool deep = frame.format.sample == SampleType::U16;
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::byte* row = frame.row(cover.source_y(y));
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::size_t sx = cover.source_x(x);
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

Picture draw_overlay_cpu(const ImageView& frame, const Histogram& histogram, std::uint32_t width,
                         std::uint32_t height, const OverlayStyle& style) {
  validate_overlay(frame, width, height);
  const OverlayLayout layout = overlay_layout(width, height);
  DrawOptions panel;
  panel.width = layout.panel_width;
  panel.height = layout.panel_height;
  panel.scale = style.scale;
  panel.background = style.background;
  panel.channels = style.left_channels;
  const Picture left = draw_cpu(histogram, panel);
  panel.channels = style.right_channels;
  const Picture right = draw_cpu(histogram, panel);
  return compose_overlay(frame, width, height, left, right, style.background);
}

}  // namespace gpuhist
