// Test images made in memory: random, one-colour and gradient pixels in every
// pixel format, with optional padding after each row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuhist/image_view.hpp"

namespace gpuhist::test {

enum class Content { Random, Flat, Gradient, FloatSpecials };

std::string to_string(Content content);

// Owns the pixels behind `view`.
struct TestImage {
  std::vector<std::uint32_t> storage;
  ImageView view;
};

// A width x height image of `format`; rows are `pad` bytes longer than needed
// (pad must keep samples aligned). FloatSpecials mixes NaN, infinities,
// negatives, values above 1, denormals and exact bin boundaries (float
// formats only; integer formats get extremes 0 and max with random values).
TestImage make_image(PixelFormat format, std::uint32_t width, std::uint32_t height, Content content,
                     std::uint32_t seed = 1, std::size_t pad = 0);

// The pixels of `image` row after row, without the padding between rows: what
// two images are compared by.
std::vector<std::byte> pixel_bytes_of(const ImageView& image);

// Every layout x sample type combination.
std::vector<PixelFormat> all_formats();

// The 8- and 16-bit ones: what adjustments take.
std::vector<PixelFormat> integer_formats();

}  // namespace gpuhist::test
