#include "io/images/webp_exif.hpp"

#include <array>
#include <cstring>
#include <fstream>
#include <vector>

#include "io/images/byte_order.hpp"
#include "io/images/jpeg_decoder.hpp"

namespace gpuhist::images {
namespace {

// An EXIF chunk is read whole up to this size; larger is no orientation.
constexpr std::uint32_t kLargestExif = 1U << 20;

}  // namespace

std::uint8_t webp_orientation(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 12> riff{};
  in.read(reinterpret_cast<char*>(riff.data()), riff.size());
  if (in.gcount() != 12 || std::memcmp(riff.data(), "RIFF", 4) != 0 ||
      std::memcmp(riff.data() + 8, "WEBP", 4) != 0) {
    return 1;
  }
  // Chunks: a four-character code, a little-endian size, the data padded to
  // an even length.
  std::array<unsigned char, 8> header{};
  for (std::uint64_t at = 12;;) {
    in.seekg(static_cast<std::streamoff>(at));
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    if (in.gcount() != 8) return 1;
    const std::uint32_t size = little32(header.data() + 4);
    if (std::memcmp(header.data(), "EXIF", 4) == 0) {
      if (size < 8 || size > kLargestExif) return 1;
      // The TIFF-format EXIF data, which some writers give JPEG's prefix too.
      std::vector<unsigned char> data(6 + std::size_t{size});
      std::memcpy(data.data(), "Exif\0\0", 6);
      in.read(reinterpret_cast<char*>(data.data() + 6), size);
      if (static_cast<std::uint32_t>(in.gcount()) != size) return 1;
      const bool prefixed = std::memcmp(data.data() + 6, "Exif\0\0", 6) == 0;
      return exif_orientation(std::span<const unsigned char>(data).subspan(prefixed ? 6 : 0));
    }
    at += 8 + std::uint64_t{size} + (size & 1U);
  }
}

}  // namespace gpuhist::images
