// Whether a GIF's first picture has a transparent colour: the image library
// gives every GIF four channels, and one without transparency is RGB.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace gpuhist::images {

// False when the first image covers the whole screen and the Graphic Control
// Extension before it (in `head`, the file's first bytes) declares no
// transparent colour, or there is none; true when it declares one, when the
// first image is smaller than the screen (the rest of the frame is
// transparent), or `head` does not say (a damaged file, blocks past it).
[[nodiscard]] bool gif_may_be_transparent(std::span<const unsigned char> head);

// The first picture's place on the screen and the colour of its transparent
// index (from its own colour table, else the global one), where `head`
// declares one: the colour stored under its transparent pixels, which the
// image library reads as black.
struct GifTransparency {
  std::uint32_t left = 0, top = 0, width = 0, height = 0;
  std::array<unsigned char, 3> colour{};
};
[[nodiscard]] std::optional<GifTransparency> gif_transparency(std::span<const unsigned char> head);

// The first picture's place on its screen, where `head` gives both.
struct GifPlace {
  std::uint32_t left = 0, top = 0, width = 0, height = 0;
  std::uint32_t screen_width = 0, screen_height = 0;
  // The screen's pixels the picture does not cover (which hold no colour of
  // the file: the image library reads them as transparent black).
  [[nodiscard]] std::uint64_t uncovered() const;
};
[[nodiscard]] std::optional<GifPlace> gif_first_place(std::span<const unsigned char> head);

// Where the first picture's image descriptor (0x2C) starts in `file`, as the
// blocks before it lead there, or nothing (no picture, or `file` ends first).
[[nodiscard]] std::optional<std::size_t> gif_first_descriptor(std::span<const unsigned char> file);

}  // namespace gpuhist::images
