// A 32-bit BMP's pixel bytes as its header describes them. OpenImageIO 2.4
// reads every 32-bit BMP as B, G, R and alpha bytes, whatever its bit fields
// say, and takes the fourth byte for alpha where the format leaves it unused.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpuhist/image.hpp"

namespace gpuhist::images {

struct BmpPixels {
  // What the fourth channel of the library's pixels is once reordered: unused
  // (bit fields without an alpha mask), or alpha unless every pixel's is 0
  // (plain 32-bit pixels, whose fourth byte the format leaves unused and some
  // writers fill with alpha, FFmpeg's rule; and a mask's alpha, which writers
  // leave 0 too, as web browsers read it): a picture, not an invisible one.
  enum class Fourth : std::uint8_t { Unused, AlphaUnlessAllZero };
  // The library's channel holding red, green, blue and the fourth byte.
  std::array<std::uint8_t, 4> from{0, 1, 2, 3};
  Fourth fourth = Fourth::AlphaUnlessAllZero;
  // Why the pixels cannot be read as bytes (a mask that is not one whole
  // byte, two masks on one byte); empty when they can.
  std::string unsupported;

  [[nodiscard]] bool reordered() const noexcept {
    return from != std::array<std::uint8_t, 4>{0, 1, 2, 3};
  }
};

// The layout of a 32-bit BMP from its first bytes (`head`, the file header
// and info header in it); nullopt for any other BMP or a head too short.
[[nodiscard]] std::optional<BmpPixels> bmp_pixels(std::span<const unsigned char> head);

// The library's four channels of `image` (8-bit RGBA rows) as `pixels` says:
// reordered, and the fourth dropped (the image made RGB) where it is unused,
// all zero where that means unused, or `keep_alpha` is false. Returns whether
// the fourth channel is alpha (kept or not).
bool arrange_bmp_pixels(const BmpPixels& pixels, bool keep_alpha, Image& image);

// Whether the BMP `head` (its first bytes) codes its pixels run-length (8- or
// 4-bit).
[[nodiscard]] bool bmp_is_run_length(std::span<const unsigned char> head);

// Whether the palette of the BMP `head` (its first bytes) is all grey, as
// OpenImageIO 2.4 decides it to read a BMP as one channel: every entry (the
// count its header says, else 2^bits) with equal red, green and blue. False
// where the palette is not within `head`.
[[nodiscard]] bool bmp_palette_is_grey(std::span<const unsigned char> head);

// `bytes`, a whole run-length BMP, with an end of line that ends the last row
// just before the end of the bitmap made an end of bitmap itself (as GIMP and
// ImageMagick end their files): OpenImageIO 2.4 refuses the pair after the
// last row, even the end of the bitmap, as a pixel out of bounds. Returns
// whether it changed a byte.
bool end_run_length_at_last_row(std::vector<unsigned char>& bytes);

}  // namespace gpuhist::images
