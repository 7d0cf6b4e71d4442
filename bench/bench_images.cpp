#include "bench_images.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>

#include "gpuhist/error.hpp"
#include "pixel_patterns.hpp"

namespace gpuhist::bench {

// RGBA8 source pixels of a kind, then converted to the case's format.
Pixels make_pixels(const Case& c, std::uint32_t width, std::uint32_t height, DataKind kind,
                   const std::optional<Photo>& photo) {
  const std::uint64_t count = std::uint64_t{width} * height;
  std::vector<std::uint32_t> rgba(count);
  std::uint64_t state = bench_patterns::kSeed;
  switch (kind) {
    case DataKind::Random:
      bench_patterns::fill_random(rgba, state);
      break;
    case DataKind::Flat:
      std::fill(rgba.begin(), rgba.end(), bench_patterns::kOneColour);
      break;
    case DataKind::Photo:
      if (!photo) throw Error(ErrorKind::InvalidArgument, "the photo data kind needs a photo");
      for (std::uint32_t y = 0; y < height; ++y) {
        const std::uint8_t* row =
            photo->rgba.data() + std::size_t{y % photo->height} * photo->width * 4;
        for (std::uint32_t x = 0; x < width; ++x) {
          std::memcpy(&rgba[std::size_t{y} * width + x], row + std::size_t{x % photo->width} * 4,
                      4);
        }
      }
      break;
  }
  Pixels out;
  const std::uint32_t channels = channel_count(c.format.layout);
  const std::uint64_t bytes = count * pixel_bytes(c.format);
  out.storage.resize(static_cast<std::size_t>((bytes + 15) / 16 * 4));
  out.view = ImageView::packed(out.storage.data(), width, height, c.format);
  auto* dst = reinterpret_cast<std::uint8_t*>(out.storage.data());
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::uint32_t ch = 0; ch < channels; ++ch) {
      const std::uint32_t v = (rgba[i] >> (8 * ch)) & 0xFF;
      const std::uint64_t at = i * channels + ch;
      switch (c.format.sample) {
        case SampleType::U8:
          dst[at] = static_cast<std::uint8_t>(v);
          break;
        case SampleType::U16: {
          // Random data spans all 16 bits; other kinds scale 8-bit values exactly.
          const auto s = static_cast<std::uint16_t>(
              kind == DataKind::Random ? bench_patterns::next(state) : std::uint64_t{v} * 257);
          std::memcpy(dst + at * 2, &s, 2);
          break;
        }
        case SampleType::F32: {
          const float f = static_cast<float>(v) / 255.0f;
          std::memcpy(dst + at * 4, &f, 4);
          break;
        }
      }
    }
  }
  return out;
}

std::string to_string(DataKind kind) {
  switch (kind) {
    case DataKind::Random:
      return "random";
    case DataKind::Flat:
      return "one-colour";
    case DataKind::Photo:
      return "photo";
  }
  return "?";
}

Photo read_netpbm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, path + ": cannot open");
  std::string magic;
  in >> magic;
  Photo photo;
  std::uint32_t channels = 3;
  unsigned max_value = 0;
  if (magic == "P6") {
    in >> photo.width >> photo.height >> max_value;
    in.get();
  } else if (magic == "P7") {
    std::string key;
    while (in >> key && key != "ENDHDR") {
      if (key == "WIDTH")
        in >> photo.width;
      else if (key == "HEIGHT")
        in >> photo.height;
      else if (key == "DEPTH")
        in >> channels;
      else if (key == "MAXVAL")
        in >> max_value;
      else
        std::getline(in, key);
    }
    in.get();
  }
  if (!in || max_value != 255 || (channels != 3 && channels != 4) || photo.width == 0 ||
      photo.height == 0) {
    throw Error(ErrorKind::Input, path + ": not an 8-bit binary PPM or PAM image");
  }
  std::vector<std::uint8_t> raw(std::size_t{photo.width} * photo.height * channels);
  in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
  if (!in) throw Error(ErrorKind::Input, path + ": truncated image data");
  photo.rgba.resize(std::size_t{photo.width} * photo.height * 4);
  for (std::size_t i = 0; i < std::size_t{photo.width} * photo.height; ++i) {
    for (std::uint32_t c = 0; c < 3; ++c) photo.rgba[i * 4 + c] = raw[i * channels + c];
    photo.rgba[i * 4 + 3] = channels == 4 ? raw[i * channels + 3] : 255;
  }
  return photo;
}

}  // namespace gpuhist::bench
