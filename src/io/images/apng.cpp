#include "io/images/apng.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {

bool png_is_animated(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  // The signature, then chunks: length, type, data, CRC; walked by their
  // headers up to the image data, however large the chunks before it.
  std::uint32_t frames = 0;
  bool animation = false;
  bool default_is_a_frame = false;
  std::array<unsigned char, 12> header{};
  for (std::uint64_t at = 8;;) {
    in.seekg(static_cast<std::streamoff>(at));
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    if (in.gcount() < 8) return false;
    const std::uint32_t length = big32(header.data());
    const unsigned char* type = header.data() + 4;
    if (std::memcmp(type, "IDAT", 4) == 0) {
      return animation && (frames > 1 || (frames == 1 && !default_is_a_frame));
    }
    if (std::memcmp(type, "IEND", 4) == 0 || length > 0x7FFFFFFFU) return false;
    if (std::memcmp(type, "acTL", 4) == 0 && length >= 8 && in.gcount() == 12) {
      animation = true;
      frames = big32(header.data() + 8);
    } else if (std::memcmp(type, "fcTL", 4) == 0) {
      default_is_a_frame = true;
    }
    at += std::uint64_t{12} + length;
  }
}

}  // namespace gpuhist::images
