// PNG files made by hand for the tests: every colour type and bit depth,
// interlaced or not, with the chunks a test places before or after the image
// data. The image data is a zlib stream of stored (uncompressed) blocks, so
// the bytes of each row are where a test can find them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpuhist::test {

// A PNG chunk: length, type, data, CRC-32 of the type and data.
[[nodiscard]] std::string png_chunk(const std::string& type, const std::string& data);

// `data` as a zlib stream of stored (uncompressed) blocks.
[[nodiscard]] std::string zlib_stored(const std::string& data);

struct PngSpec {
  std::uint32_t width = 1;
  std::uint32_t height = 1;
  int bit_depth = 8;                     // 1, 2, 4, 8 or 16, as the colour type allows
  int colour_type = 2;                   // 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA
  bool interlaced = false;               // Adam7
  std::string palette;                   // PLTE's data: three bytes an entry
  std::string transparency;              // tRNS's data, or none when empty
  std::vector<std::string> before_data;  // whole chunks (png_chunk) after IHDR
  std::vector<std::string> after_data;   // whole chunks between IDAT and IEND
};

// Samples a colour type has a pixel: 1, 3 (RGB), 1 (palette index), 2 or 4.
[[nodiscard]] int png_samples(int colour_type);

// The PNG of `spec` whose sample `c` of pixel (x, y) is sample(x, y, c)
// (below 2^bit_depth).
[[nodiscard]] std::string build_png(
    const PngSpec& spec,
    const std::function<std::uint32_t(std::uint32_t x, std::uint32_t y, int c)>& sample);

}  // namespace gpuhist::test
