#include "support/png_builder.hpp"

#include <algorithm>
#include <array>

namespace gpuhist::test {
namespace {

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (24 - 8 * i));
}

// The rows of the sub-image of pixels (x0 + i * dx, y0 + j * dy), each after
// its filter byte (0, none), packed as PNG packs samples of `bit_depth`.
void append_rows(std::string& out, const PngSpec& spec, std::uint32_t x0, std::uint32_t y0,
                 std::uint32_t dx, std::uint32_t dy,
                 const std::function<std::uint32_t(std::uint32_t, std::uint32_t, int)>& sample) {
  if (x0 >= spec.width || y0 >= spec.height) return;  // an empty pass has no rows
  const int samples = png_samples(spec.colour_type);
  for (std::uint32_t y = y0; y < spec.height; y += dy) {
    out += '\0';
    std::uint32_t bits = 0;
    int held = 0;
    for (std::uint32_t x = x0; x < spec.width; x += dx) {
      for (int c = 0; c < samples; ++c) {
        const std::uint32_t v = sample(x, y, c);
        if (spec.bit_depth == 16) {
          out += static_cast<char>(v >> 8);
          out += static_cast<char>(v & 0xFF);
        } else if (spec.bit_depth == 8) {
          out += static_cast<char>(v);
        } else {
          bits = bits << spec.bit_depth | (v & ((1U << spec.bit_depth) - 1));
          held += spec.bit_depth;
          if (held == 8) {
            out += static_cast<char>(bits);
            bits = 0;
            held = 0;
          }
        }
      }
    }
    if (held > 0) out += static_cast<char>(bits << (8 - held));
  }
}

}  // namespace

std::string png_chunk(const std::string& type, const std::string& data) {
  std::uint32_t crc = 0xFFFFFFFFU;
  for (const char c : type + data) {
    crc ^= static_cast<unsigned char>(c);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320U & (0U - (crc & 1U)));
  }
  std::string out;
  put32(out, static_cast<std::uint32_t>(data.size()));
  out += type + data;
  put32(out, crc ^ 0xFFFFFFFFU);
  return out;
}

std::string zlib_stored(const std::string& data) {
  std::string out = "\x78\x01";
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(data.size() - at, 65535);
    out += static_cast<char>(at + n == data.size() ? 1 : 0);  // the last block, or not
    out += static_cast<char>(n & 0xFF);
    out += static_cast<char>(n >> 8);
    out += static_cast<char>(~n & 0xFF);
    out += static_cast<char>((~n >> 8) & 0xFF);
    out.append(data, at, n);
    at += n;
  } while (at < data.size());
  std::uint32_t a = 1, b = 0;
  for (const char c : data) {
    a = (a + static_cast<unsigned char>(c)) % 65521;
    b = (b + a) % 65521;
  }
  put32(out, b << 16 | a);
  return out;
}

int png_samples(int colour_type) {
  switch (colour_type) {
    case 2:
      return 3;
    case 4:
      return 2;
    case 6:
      return 4;
    default:
      return 1;
  }
}

std::string build_png(
    const PngSpec& spec,
    const std::function<std::uint32_t(std::uint32_t x, std::uint32_t y, int c)>& sample) {
  std::string header;
  put32(header, spec.width);
  put32(header, spec.height);
  header += static_cast<char>(spec.bit_depth);
  header += static_cast<char>(spec.colour_type);
  header += std::string(2, '\0');  // deflate, adaptive filtering
  header += static_cast<char>(spec.interlaced ? 1 : 0);
  std::string rows;
  if (spec.interlaced) {
    // Adam7's passes: first column and row, then the steps between them.
    constexpr std::array<std::array<std::uint32_t, 4>, 7> kPasses = {{{0, 0, 8, 8},
                                                                      {4, 0, 8, 8},
                                                                      {0, 4, 4, 8},
                                                                      {2, 0, 4, 4},
                                                                      {0, 2, 2, 4},
                                                                      {1, 0, 2, 2},
                                                                      {0, 1, 1, 2}}};
    for (const auto& [x0, y0, dx, dy] : kPasses) append_rows(rows, spec, x0, y0, dx, dy, sample);
  } else {
    append_rows(rows, spec, 0, 0, 1, 1, sample);
  }
  std::string png = "\x89PNG\r\n\x1A\n" + png_chunk("IHDR", header);
  for (const std::string& chunk : spec.before_data) png += chunk;
  if (!spec.palette.empty()) png += png_chunk("PLTE", spec.palette);
  if (!spec.transparency.empty()) png += png_chunk("tRNS", spec.transparency);
  png += png_chunk("IDAT", zlib_stored(rows));
  for (const std::string& chunk : spec.after_data) png += chunk;
  return png + png_chunk("IEND", "");
}

}  // namespace gpuhist::test
