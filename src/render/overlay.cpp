#include <algorithm>
#include <cstring>

#include "core/eight_bit.hpp"
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

void compose_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height,
                     const Picture& rgb_panel, const Picture& luminance_panel,
                     std::uint32_t background, Picture& out) {
  validate_overlay(frame, width, height);
  const std::size_t bytes = std::size_t{width} * height * 4;
  if (out.width != width || out.height != height || out.rgba.size() != bytes) {
    out = Picture{width, height, std::vector<std::uint8_t>(bytes)};
  }
  const render::Cover cover(frame.width, frame.height, width, height);
  const bool deep = frame.format.sample == SampleType::U16;
  // The frame's sample offset of each target column, worked out once a frame.
  std::vector<std::size_t> columns(width);
  for (std::uint32_t x = 0; x < width; ++x) {
    columns[x] = std::size_t{cover.source_x(x)} * 3 * (deep ? 2 : 1);
  }
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::byte* row = frame.row(cover.source_y(y));
    std::uint8_t* px = &out.rgba[std::size_t{y} * width * 4];
    if (deep) {
      // Each 16-bit sample rounded to the nearest 8-bit value, round(v * 255 / 65535).
      for (std::uint32_t x = 0; x < width; ++x, px += 4) {
        std::uint16_t v[3];
        std::memcpy(v, row + columns[x], sizeof v);
        px[0] = nearest_eight_bit(v[0]);
        px[1] = nearest_eight_bit(v[1]);
        px[2] = nearest_eight_bit(v[2]);
        px[3] = 0xFF;
      }
    } else {
      for (std::uint32_t x = 0; x < width; ++x, px += 4) {
        const std::byte* s = row + columns[x];
        px[0] = static_cast<std::uint8_t>(s[0]);
        px[1] = static_cast<std::uint8_t>(s[1]);
        px[2] = static_cast<std::uint8_t>(s[2]);
        px[3] = 0xFF;
      }
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
}

Picture compose_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height,
                        const Picture& rgb_panel, const Picture& luminance_panel,
                        std::uint32_t background) {
  Picture out;
  compose_overlay(frame, width, height, rgb_panel, luminance_panel, background, out);
  return out;
}

void draw_overlay_cpu(const ImageView& frame, const Histogram& histogram, std::uint32_t width,
                      std::uint32_t height, const OverlayStyle& style, Picture& out) {
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
  compose_overlay(frame, width, height, left, right, style.background, out);
}

Picture draw_overlay_cpu(const ImageView& frame, const Histogram& histogram, std::uint32_t width,
                         std::uint32_t height, const OverlayStyle& style) {
  Picture out;
  draw_overlay_cpu(frame, histogram, width, height, style, out);
  return out;
}

}  // namespace gpuhist
