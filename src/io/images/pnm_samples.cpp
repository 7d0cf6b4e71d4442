#include "io/images/pnm_samples.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
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
      if (value > 0xFFFFFFFFULL) {
        overflowed_ = true;
        return std::nullopt;
      }
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    return static_cast<std::uint32_t>(value);
  }
  // Whether number() met a number over 2^32 - 1.
  [[nodiscard]] bool overflowed() const noexcept { return overflowed_; }
  // Any token, skipped (a PFM's scale, "-1.0"); false where there is none.
  bool word() {
    skip_space();
    const std::size_t from = at_;
    while (at_ < bytes_.size() && !space(bytes_[at_])) ++at_;
    return at_ > from;
  }
  // A plain PBM's pixel: one digit, 0 or 1, with or without whitespace
  // (and comments) before it.
  std::optional<unsigned> bit() {
    skip_space();
    if (at_ >= bytes_.size() || (bytes_[at_] != '0' && bytes_[at_] != '1')) return std::nullopt;
    return static_cast<unsigned>(bytes_[at_++] - '0');
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
  bool overflowed_ = false;
};

}  // namespace

std::vector<unsigned char> deep_pnm_file(const ImageView& image) {
  const bool grey = image.format.layout == ChannelLayout::Grey;
  const std::size_t from = channel_count(image.format.layout), to = grey ? 1 : 3;
  const std::string header = std::string(grey ? "P5\n" : "P6\n") + std::to_string(image.width) +
                             " " + std::to_string(image.height) + "\n65535\n";
  std::vector<unsigned char> file(header.begin(), header.end());
  file.reserve(header.size() + std::size_t{image.width} * image.height * to * 2);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const auto* row = reinterpret_cast<const std::uint16_t*>(image.row(y));
    for (std::uint32_t x = 0; x < image.width; ++x) {
      for (std::size_t c = 0; c < to; ++c) {
        const std::uint16_t v = row[x * from + c];  // big-endian in the file
        file.push_back(static_cast<unsigned char>(v >> 8));
        file.push_back(static_cast<unsigned char>(v & 0xFFU));
      }
    }
  }
  return file;
}

std::string pnm_raster_shortfall(std::span<const unsigned char> head, std::uintmax_t file_bytes) {
  if (head.size() < 2 || head[0] != 'P') return {};
  const unsigned char kind = head[1];
  if (kind != '4' && kind != '5' && kind != '6' && kind != 'F' && kind != 'f') return {};
  Tokens tokens(head);
  const auto width = tokens.number();
  const auto height = tokens.number();
  if (!width || !height) return {};
  std::uint64_t raster = 0;
  if (kind == '4') {  // a bit a pixel, rows of whole bytes
    raster = (std::uint64_t{*width} + 7) / 8 * *height;
  } else if (kind == 'F' || kind == 'f') {  // 32-bit floats, after the scale
    if (!tokens.word()) return {};
    raster = std::uint64_t{*width} * *height * (kind == 'F' ? 3 : 1) * 4;
  } else {
    const auto maximum = tokens.number();
    if (!maximum || *maximum == 0 || *maximum > 65535) return {};
    raster = std::uint64_t{*width} * *height * (kind == '5' ? 1 : 3) * (*maximum > 255 ? 2 : 1);
  }
  const auto start = tokens.raster_start();
  if (!start) return {};
  const std::uint64_t after = file_bytes > *start ? file_bytes - *start : 0;
  if (after >= raster) return {};
  return "its " + std::to_string(*width) + "x" + std::to_string(*height) + " raster takes " +
         std::to_string(raster) + " bytes after its header, and the file has " +
         std::to_string(after);
}

std::string pnm_bad_maximum(std::span<const unsigned char> head) {
  if (head.size() < 2 || head[0] != 'P') return {};
  const unsigned char kind = head[1];
  if (kind != '2' && kind != '3' && kind != '5' && kind != '6') return {};
  Tokens tokens(head);
  const auto width = tokens.number();
  const auto height = tokens.number();
  if (!width || !height) return {};
  const auto maximum = tokens.number();
  if (!maximum && tokens.overflowed())
    return "its maximum value is over 65535, not one of 1 to 65535";
  if (!maximum || (*maximum != 0 && *maximum <= 65535)) return {};
  return "its maximum value is " + std::to_string(*maximum) + ", not one of 1 to 65535";
}

bool read_deep_pnm_samples(const std::filesystem::path& path, std::span<const unsigned char> head,
                           Image& image) {
  if (head.size() < 2 || head[0] != 'P') return false;
  const char kind = static_cast<char>(head[1]);
  const bool ascii = kind == '2' || kind == '3';
  const std::uint32_t channels = kind == '2' || kind == '5' ? 1 : 3;
  if (kind != '2' && kind != '3' && kind != '5' && kind != '6') return false;
  if (image.format.sample != SampleType::U16 || channel_count(image.format.layout) != channels) {
    return false;
  }
  Tokens tokens(head);
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
    return static_cast<std::uint16_t>(std::uint64_t{v} * 65535 / max);
  };
  std::error_code ec;
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (ec) return false;
  if (!ascii) {
    // A binary raster, checked to lie in the file, then read a row at a time
    // straight into the image's rows.
    const auto start = tokens.raster_start();
    const std::uint64_t row_bytes = std::uint64_t{samples} * 2;
    if (!start || file_bytes < *start || file_bytes - *start < row_bytes * image.height) {
      return false;
    }
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(*start));
    std::vector<unsigned char> row(row_bytes);
    for (std::uint32_t y = 0; y < image.height; ++y) {
      in.read(reinterpret_cast<char*>(row.data()), static_cast<std::streamsize>(row.size()));
      if (static_cast<std::uint64_t>(in.gcount()) != row_bytes) return false;
      auto* out = reinterpret_cast<std::uint16_t*>(image.storage.data() + y * image.stride);
      for (std::size_t i = 0; i < samples; ++i) {
        out[i] = scaled(std::uint32_t{row[2 * i]} << 8 | row[2 * i + 1]);
      }
    }
    return true;
  }
  // ASCII numbers, read from the whole file and decoded whole before
  // anything is written: `image` is untouched should one be missing.
  std::vector<unsigned char> file(static_cast<std::size_t>(file_bytes));
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(file.data()), static_cast<std::streamsize>(file.size()));
  if (static_cast<std::uintmax_t>(in.gcount()) != file_bytes) return false;
  Tokens numbers(file);
  for (int skipped = 0; skipped < 3; ++skipped) (void)numbers.number();  // the header's
  std::vector<std::uint16_t> all(samples * image.height);
  for (std::uint16_t& sample : all) {
    const auto v = numbers.number();
    if (!v) return false;
    sample = scaled(*v);
  }
  for (std::uint32_t y = 0; y < image.height; ++y) {
    std::memcpy(image.storage.data() + y * image.stride, all.data() + y * samples, samples * 2);
  }
  return true;
}

bool read_plain_pbm(const std::filesystem::path& path, Image& image) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || image.format != PixelFormat{ChannelLayout::Grey, SampleType::U8}) return false;
  std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::uintmax_t>(in.gcount()) != size || size < 2 || bytes[0] != 'P' ||
      bytes[1] != '1') {
    return false;
  }
  Tokens tokens(bytes);
  if (tokens.number() != image.width || tokens.number() != image.height) return false;
  std::vector<unsigned char> pixels(std::size_t{image.width} * image.height);
  for (unsigned char& p : pixels) {
    const std::optional<unsigned> b = tokens.bit();
    if (!b) return false;
    p = *b == 1 ? 0 : 255;  // 1 is black
  }
  for (std::uint32_t y = 0; y < image.height; ++y) {
    std::memcpy(image.storage.data() + std::size_t{y} * image.stride,
                &pixels[std::size_t{y} * image.width], image.width);
  }
  return true;
}

}  // namespace gpuhist::images
