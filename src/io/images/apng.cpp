#include "io/images/apng.hpp"

#include <cstdint>
#include <cstring>

namespace gpuhist::images {
namespace {

std::uint32_t big_endian(const unsigned char* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

}  // namespace

bool png_is_animated(std::span<const unsigned char> head) {
  // The signature, then chunks: length, type, data, CRC.
  std::size_t at = 8;
  while (at + 12 <= head.size()) {
    const std::uint32_t length = big_endian(head.data() + at);
    const unsigned char* type = head.data() + at + 4;
    if (std::memcmp(type, "IDAT", 4) == 0 || std::memcmp(type, "IEND", 4) == 0) return false;
    if (std::memcmp(type, "acTL", 4) == 0) {
      return length >= 8 && at + 12 <= head.size() && big_endian(head.data() + at + 8) > 1;
    }
    if (length > head.size()) return false;
    at += 12 + std::size_t{length};
  }
  return false;
}

}  // namespace gpuhist::images
