#include "io/images/bmp_pixels.hpp"

#include <bit>
#include <cstddef>
#include <cstdio>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {
namespace {

// The byte of a pixel (0 first in the file) a mask covers whole, or -1.
int mask_byte(std::uint32_t mask) {
  for (int b = 0; b < 4; ++b) {
    if (mask == 0xFFU << (8 * b)) return b;
  }
  return -1;
}

// The library's channel of a pixel's byte: it swaps the first and third.
std::uint8_t channel_of_byte(int b) { return static_cast<std::uint8_t>(b < 3 ? 2 - b : 3); }

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08X", v);
  return text;
}

}  // namespace

std::optional<BmpPixels> bmp_pixels(std::span<const unsigned char> head) {
  if (head.size() < 34 || head[0] != 'B' || head[1] != 'M') return std::nullopt;
  const std::uint32_t header = little32(&head[14]);
  if (header < 40 || little16(&head[28]) != 32) return std::nullopt;
  const std::uint32_t coding = little32(&head[30]);
  BmpPixels pixels;
  if (coding != 3 && coding != 6) return pixels;  // plain: B, G, R and a fourth byte
  // Bit fields: red, green and blue masks after a 40-byte header or in a
  // longer one, at the same place; alpha's after them where the header holds
  // it (56 bytes and more) or the coding adds it (6).
  if (head.size() < 70) return std::nullopt;
  const std::uint32_t masks[3] = {little32(&head[54]), little32(&head[58]), little32(&head[62])};
  const std::uint32_t alpha = header >= 56 || coding == 6 ? little32(&head[66]) : 0;
  pixels.fourth = alpha != 0 ? BmpPixels::Fourth::AlphaUnlessAllZero : BmpPixels::Fourth::Unused;
  if (masks[0] == 0 && masks[1] == 0 && masks[2] == 0 && alpha == 0) return pixels;
  unsigned taken = 0;
  for (int c = 0; c < 4; ++c) {
    const std::uint32_t mask = c < 3 ? masks[c] : alpha;
    if (c == 3 && mask == 0) {
      // The byte no mask covers is the fourth, unused.
      pixels.from[3] = channel_of_byte(std::countr_zero(~taken & 0xFU));
      break;
    }
    const int b = mask_byte(mask);
    if (b < 0 || (taken & (1U << b)) != 0) {
      pixels.unsupported = "unsupported image: a 32-bit BMP whose bit fields (red " +
                           hex(masks[0]) + ", green " + hex(masks[1]) + ", blue " + hex(masks[2]) +
                           ", alpha " + hex(alpha) + ") " +
                           (b < 0 ? "are not one whole byte each" : "put two on one byte");
      return pixels;
    }
    taken |= 1U << b;
    pixels.from[static_cast<std::size_t>(c)] = channel_of_byte(b);
  }
  return pixels;
}

bool arrange_bmp_pixels(const BmpPixels& pixels, bool keep_alpha, Image& image) {
  const bool reorder = pixels.reordered();
  bool alpha = false;
  if (pixels.fourth == BmpPixels::Fourth::AlphaUnlessAllZero) {
    for (std::uint32_t y = 0; y < image.height && !alpha; ++y) {
      const auto* row = reinterpret_cast<const unsigned char*>(image.storage.data()) +
                        y * image.stride;
      for (std::uint32_t x = 0; x < image.width; ++x) {
        if (row[4 * x + 3] != 0) {
          alpha = true;
          break;
        }
      }
    }
  }
  const bool drop = !alpha || !keep_alpha;
  if (!reorder && !drop) return alpha;
  // Each pixel read whole before it is written: RGB rows (3 bytes a pixel)
  // are written no further on than the RGBA pixels they come from.
  for (std::uint32_t y = 0; y < image.height; ++y) {
    auto* row = reinterpret_cast<unsigned char*>(image.storage.data()) + y * image.stride;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const unsigned char* in = row + 4 * std::size_t{x};
      const unsigned char p[4] = {in[pixels.from[0]], in[pixels.from[1]], in[pixels.from[2]],
                                  in[pixels.from[3]]};
      unsigned char* out = row + (drop ? 3 : 4) * std::size_t{x};
      out[0] = p[0];
      out[1] = p[1];
      out[2] = p[2];
      if (!drop) out[3] = p[3];
    }
  }
  if (drop) image.format.layout = ChannelLayout::RGB;
  return alpha;
}

bool bmp_is_run_length(std::span<const unsigned char> head) {
  if (head.size() < 34 || head[0] != 'B' || head[1] != 'M' || little32(&head[14]) < 40) {
    return false;
  }
  const std::uint32_t coding = little32(&head[30]);
  return coding == 1 || coding == 2;
}

bool bmp_palette_is_grey(std::span<const unsigned char> head) {
  if (head.size() < 50 || head[0] != 'B' || head[1] != 'M') return false;
  const std::uint32_t info = little32(&head[14]);
  const std::uint32_t bits = little16(&head[28]);
  if (info < 40 || bits == 0 || bits > 8) return false;
  const std::uint32_t used = little32(&head[46]);
  const std::uint64_t colours = used != 0 ? used : std::uint64_t{1} << bits;
  const std::uint64_t at = 14 + std::uint64_t{info};
  if (colours > (std::uint64_t{1} << bits) || at + 4 * colours > head.size()) return false;
  for (std::uint64_t i = 0; i < colours; ++i) {
    const unsigned char* entry = &head[at + 4 * i];  // blue, green, red, unused
    if (entry[0] != entry[1] || entry[1] != entry[2]) return false;
  }
  return true;
}

bool end_run_length_at_last_row(std::vector<unsigned char>& bytes) {
  if (!bmp_is_run_length(bytes)) return false;
  const bool four = little32(&bytes[30]) == 2;
  const auto height = static_cast<std::int32_t>(little32(&bytes[22]));
  const std::uint64_t rows =
      height < 0 ? 0U - static_cast<std::uint64_t>(height) : std::uint64_t(height);
  // Pairs of bytes from the pixels' start: a run (a count and a value), or 0
  // and a code: 0 end of line, 1 end of bitmap, 2 a move (two bytes more), 3
  // and up that many pixels as they are, padded to a whole number of words.
  std::uint64_t y = 0;
  for (std::size_t at = little32(&bytes[10]); at + 2 <= bytes.size();) {
    const unsigned count = bytes[at], code = bytes[at + 1];
    if (count != 0) {
      at += 2;
    } else if (code == 0) {
      ++y;
      if (y == rows && at + 4 <= bytes.size() && bytes[at + 2] == 0 && bytes[at + 3] == 1) {
        bytes[at + 1] = 1;  // the end of the bitmap, one pair early
        return true;
      }
      at += 2;
    } else if (code == 1) {
      return false;
    } else if (code == 2) {
      if (at + 4 > bytes.size()) return false;
      y += bytes[at + 3];
      at += 4;
    } else {
      const std::size_t data = four ? (code + 1U) / 2U : code;
      at += 2 + (data + 1U) / 2U * 2U;
    }
  }
  return false;
}

}  // namespace gpuhist::images
