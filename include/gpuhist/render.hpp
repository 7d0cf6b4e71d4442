// Drawing histograms: the CPU renderer here, the GPU renderer through
// Context::draw. Both follow one integer rule, so they give identical pixels.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpuhist/histogram.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist {

// How counts become bar heights, per channel:
//   Clip: count * max(1 / max_count, 0.2 * bins / pixel_count) (the default):
//         the tallest bar fills the picture, or, where it is more than five
//         times the mean bin, bars of five times the mean and over do
//   Max:  count / max_count
//   Log:  log2(1 + count) / log2(1 + max_count), with log2 in 16.16 fixed point
//         (integer part plus the linear fraction between powers of two)
// (parse_scale_mode also takes "seed", Clip's name in 0.1.0.)
enum class ScaleMode : std::uint8_t { Clip, Max, Log };
[[nodiscard]] std::string_view to_string(ScaleMode mode);
[[nodiscard]] std::optional<ScaleMode> parse_scale_mode(std::string_view name);

// Channel bits of DrawOptions::channels; a pixel's set bits pick its colour.
inline constexpr std::uint32_t kDrawRed = 1, kDrawGreen = 2, kDrawBlue = 4, kDrawLuminance = 8;

// "rgb", "l", "rgbl" (and "r", "g", "b", "rg", ...) to channel bits.
[[nodiscard]] std::optional<std::uint32_t> parse_draw_channels(std::string_view text);

inline constexpr std::uint32_t kMaxDrawSize = 16384;

struct DrawOptions {
  std::uint32_t width = 256;   // 1..16384; column x shows bin floor((2x + 1) * bins / (2 * width))
  std::uint32_t height = 100;  // 1..16384
  ScaleMode scale = ScaleMode::Clip;
  std::uint32_t channels = kDrawRed | kDrawGreen | kDrawBlue;
  std::uint32_t background = 0x333333;  // 0xRRGGBB
};

// Throws Error(InvalidArgument) for a size out of range or no channel to draw.
void validate(const DrawOptions& options);

// The channels drawn of those asked for: a grey image's red, green and blue
// are its luminance, so a grey histogram shows its luminance whichever it is
// asked for (the default, R, G and B, would draw nothing).
[[nodiscard]] std::uint32_t drawn_channels(const Histogram& histogram, std::uint32_t asked);

// An 8-bit RGBA picture, rows top to bottom.
struct Picture {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba{};
  friend bool operator==(const Picture&, const Picture&) = default;
};

// The colour of a pixel whose set channel bits are `mask`: the background for
// none, otherwise additive primaries (red + green = yellow), luminance white.
[[nodiscard]] std::uint32_t palette_colour(std::uint32_t mask, std::uint32_t background);

// Draws with the CPU (the reference renderer). Counts above 2^32 - 1 are drawn
// as 2^32 - 1, as the GPU renderer's 32-bit counters hold them. A grey
// histogram draws its luminance whichever channels are asked for (drawn_channels).
[[nodiscard]] Picture draw_cpu(const Histogram& histogram, const DrawOptions& options);

// Where the two histograms go on a video frame of width x height: each 90% of
// half the width wide and a quarter of the height high, centred in its half, at
// the bottom (RGB on the left, luminance on the right).
struct OverlayLayout {
  std::uint32_t panel_width = 0;
  std::uint32_t panel_height = 0;
  std::uint32_t left_x = 0;
  std::uint32_t right_x = 0;
  std::uint32_t y = 0;
};
[[nodiscard]] OverlayLayout overlay_layout(std::uint32_t width, std::uint32_t height);

// Throws Error(InvalidArgument) unless `frame` is a valid 8- or 16-bit RGB view
// and width x height is within 2x2..16384x16384.
void validate_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height);

// A width x height RGBA picture of `frame` (8- or 16-bit RGB) scaled to cover it
// (centred, cropped, nearest sample), with the two panels of overlay_layout on
// top: bars opaque, the panels' background half over the video.
[[nodiscard]] Picture compose_overlay(const ImageView& frame, std::uint32_t width,
                                      std::uint32_t height, const Picture& rgb_panel,
                                      const Picture& luminance_panel, std::uint32_t background);
// The same into `out`, whose memory is reused when it already has the size
// (every byte is written): a video's frames then draw into the same buffers.
void compose_overlay(const ImageView& frame, std::uint32_t width, std::uint32_t height,
                     const Picture& rgb_panel, const Picture& luminance_panel,
                     std::uint32_t background, Picture& out);

// How the overlay draws its two panels: scale mode, channels of the left panel
// (RGB by default) and of the right one (luminance), background colour.
struct OverlayStyle {
  ScaleMode scale = ScaleMode::Clip;
  std::uint32_t left_channels = kDrawRed | kDrawGreen | kDrawBlue;
  std::uint32_t right_channels = kDrawLuminance;
  std::uint32_t background = 0x333333;  // 0xRRGGBB
};

// The overlay on the CPU: both panels drawn by draw_cpu, then compose_overlay.
// Context::draw_overlay gives the same bytes from the GPU. Throws
// Error(InvalidArgument) for a bad frame, size (1..16384) or channel set.
[[nodiscard]] Picture draw_overlay_cpu(const ImageView& frame, const Histogram& histogram,
                                       std::uint32_t width, std::uint32_t height,
                                       const OverlayStyle& style = {});
// The same into `out`, reusing its memory as compose_overlay does.
void draw_overlay_cpu(const ImageView& frame, const Histogram& histogram, std::uint32_t width,
                      std::uint32_t height, const OverlayStyle& style, Picture& out);

}  // namespace gpuhist
