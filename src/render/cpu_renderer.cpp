#include <array>
#include <limits>
#include <string>

#include "gpuhist/error.hpp"
#include "gpuhist/render.hpp"
#include "render/draw_rule.hpp"

namespace gpuhist {

std::string_view to_string(ScaleMode mode) {
  switch (mode) {
    case ScaleMode::Clip:
      return "clip";
    case ScaleMode::Max:
      return "max";
    case ScaleMode::Log:
      return "log";
  }
  return "?";
}

std::optional<ScaleMode> parse_scale_mode(std::string_view name) {
  if (name == "clip") return ScaleMode::Clip;
  if (name == "max") return ScaleMode::Max;
  if (name == "log") return ScaleMode::Log;
  if (name == "seed") return ScaleMode::Clip;  // its name in 0.1.0, still taken
  return std::nullopt;
}

std::optional<std::uint32_t> parse_draw_channels(std::string_view text) {
  std::uint32_t bits = 0;
  for (char c : text) {
    const std::uint32_t bit = c == 'r'   ? kDrawRed
                              : c == 'g' ? kDrawGreen
                              : c == 'b' ? kDrawBlue
                              : c == 'l' ? kDrawLuminance
                                         : 0;
    if (bit == 0 || (bits & bit) != 0) return std::nullopt;
    bits |= bit;
  }
  if (bits == 0) return std::nullopt;
  return bits;
}

void validate(const DrawOptions& options) {
  if (options.width < 1 || options.width > kMaxDrawSize || options.height < 1 ||
      options.height > kMaxDrawSize) {
    throw Error(ErrorKind::InvalidArgument, "picture size " + std::to_string(options.width) + "x" +
                                                std::to_string(options.height) +
                                                " is outside 1x1..16384x16384");
  }
  if ((options.channels & 15U) == 0 || (options.channels & ~15U) != 0) {
    throw Error(ErrorKind::InvalidArgument, "no channel to draw");
  }
  if (static_cast<std::uint32_t>(options.scale) > static_cast<std::uint32_t>(ScaleMode::Log)) {
    throw Error(ErrorKind::InvalidArgument, "unknown scale mode");
  }
}

std::uint32_t drawn_channels(const Histogram& histogram, std::uint32_t asked) {
  return histogram.colour() ? asked : kDrawLuminance;
}

std::uint32_t palette_colour(std::uint32_t mask, std::uint32_t background) {
  if (mask == 0) return background & 0xFFFFFF;
  const bool white = (mask & kDrawLuminance) != 0;
  const std::uint32_t r = white || (mask & kDrawRed) != 0 ? 0xFF : 0;
  const std::uint32_t g = white || (mask & kDrawGreen) != 0 ? 0xFF : 0;
  const std::uint32_t b = white || (mask & kDrawBlue) != 0 ? 0xFF : 0;
  return (r << 16) | (g << 8) | b;
}

Picture draw_cpu(const Histogram& histogram, const DrawOptions& options) {
  validate(options);
  const std::uint32_t bins = histogram.bins();
  if (bins == 0) throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");
  // 32-bit counts and saturated totals, as the GPU renderer sees them.
  std::array<std::vector<std::uint32_t>, 4> counts;
  std::array<render::ChannelScale, 4> scales{};
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto channel = static_cast<Channel>(c);
    counts[c].assign(bins, 0);
    if (!histogram.has(channel)) continue;
    const auto source = histogram.counts(channel);
    std::uint64_t sum = 0;
    for (std::uint32_t b = 0; b < bins; ++b) {
      counts[c][b] = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(source[b], std::numeric_limits<std::uint32_t>::max()));
      scales[c].max = std::max(scales[c].max, counts[c][b]);
      sum += counts[c][b];
    }
    scales[c].sum = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(sum, std::numeric_limits<std::uint32_t>::max()));
  }

  const std::uint32_t drawn = drawn_channels(histogram, options.channels);
  Picture picture{options.width, options.height,
                  std::vector<std::uint8_t>(std::size_t{options.width} * options.height * 4)};
  for (std::uint32_t x = 0; x < options.width; ++x) {
    // The column's largest count of each channel.
    const render::ColumnBins range = render::column_bins(x, options.width, bins);
    std::array<std::uint32_t, 4> count{};
    for (std::uint32_t b = range.first; b < range.end; ++b) {
      for (std::size_t c = 0; c < 4; ++c) count[c] = std::max(count[c], counts[c][b]);
    }
    for (std::uint32_t y = 0; y < options.height; ++y) {
      const std::uint32_t a = 2 * (options.height - y) - 1;
      std::uint32_t mask = 0;
      for (std::uint32_t c = 0; c < 4; ++c) {
        if ((drawn & (1U << c)) != 0 &&
            render::covers(options.scale, count[c], scales[c], a, options.height, bins)) {
          mask |= 1U << c;
        }
      }
      const std::uint32_t rgb = palette_colour(mask, options.background);
      std::uint8_t* px = &picture.rgba[(std::size_t{y} * options.width + x) * 4];
      px[0] = static_cast<std::uint8_t>(rgb >> 16);
      px[1] = static_cast<std::uint8_t>(rgb >> 8);
      px[2] = static_cast<std::uint8_t>(rgb);
      px[3] = 0xFF;
    }
  }
  return picture;
}

}  // namespace gpuhist
