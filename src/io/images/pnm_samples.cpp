#include "io/images/pnm_samples.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace gpuhist::images {
namespace {

// Reads the header's and an ASCII raster's numbers: whitespace and comments
// (# to the end of the line) between them.
class Tokens {
 public:
  explicit Tokens(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  std::optional<std::uint32_t> number() {
    skip_space();
    std::uint64_t value = 0;
    std::size_t digits = 0;
    while (at_ < bytes_.size() && bytes_[at_] >= '0' && bytes_[at_] <= '9') {
      value = value * 10 + (bytes_[at_++] - '0');
      if (value > 0xFFFFFFFFULL) return std::nullopt;
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    return static_cast<std::uint32_t>(value);
  }
  // After the maximum value: one whitespace byte, then a binary raster.
  std::optional<std::size_t> raster_start() {
    if (at_ >= bytes_.size() || !space(bytes_[at_])) return std::nullopt;
    return at_ + 1;
  }

 private:
  static bool space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }
  void skip_space() {
    while (at_ < bytes_.size()) {
      if (space(bytes_[at_])) {
        ++at_;
      } else if (bytes_[at_] == '#') {
        while (at_ < bytes_.size() && bytes_[at_] != '\n' && bytes_[at_] != '\r') ++at_;
      } else {
        break;
      }
    }
  }
  std::span<const unsigned char> bytes_;
  std::size_t at_ = 2;  // past the magic number
};

}  // namespace

bool read_deep_pnm_samples(std::span<const unsigned char> file, Image& image) {
  if (file.size() < 2 || file[0] != 'P') return false;
  const char kind = static_cast<char>(file[1]);
  const bool ascii = kind == '2' || kind == '3';
  const std::uint32_t channels = kind == '2' || kind == '5' ? 1 : 3;
  if (kind != '2' && kind != '3' && kind != '5' && kind != '6') return false;
  if (image.format.sample != SampleType::U16 || channel_count(image.format.layout) != channels) {
    return false;
  }
  Tokens tokens(file);
  const auto width = tokens.number();
  const auto height = tokens.number();
  const auto maximum = tokens.number();
  if (!width || !height || !maximum || *width != image.width || *height != image.height ||
      *maximum <= 255 || *maximum > 65535) {
    return false;
  }
  const std::size_t samples = std::size_t{image.width} * channels;
  const auto scaled = [max = *maximum](std::uint32_t v) {
    if (v >= max) return std::uint16_t{65535};
    return static_cast<std::uint16_t>((std::uint64_t{v} * 65535 + max / 2) / max);
  };
  std::size_t at = 0;
  if (!ascii) {
    const auto start = tokens.raster_start();
    if (!start || file.size() - *start < samples * 2 * image.height) return false;
    at = *start;
  }
  // Decoded whole before anything is written: `image` is untouched on failure.
  std::vector<std::uint16_t> all(samples * image.height);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (ascii) {
      const auto v = tokens.number();
      if (!v) return false;
      all[i] = scaled(*v);
    } else {
      all[i] = scaled(std::uint32_t{file[at]} << 8 | file[at + 1]);
      at += 2;
    }
  }
  for (std::uint32_t y = 0; y < image.height; ++y) {
    std::memcpy(image.storage.data() + y * image.stride, all.data() + y * samples, samples * 2);
  }
  return true;
}

}  // namespace gpuhist::images
