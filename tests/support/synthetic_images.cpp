#include "support/synthetic_images.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace gpuhist::test {

std::string to_string(Content content) {
  switch (content) {
    case Content::Random:
      return "random";
    case Content::Flat:
      return "flat";
    case Content::Gradient:
      return "gradient";
    case Content::FloatSpecials:
      return "specials";
  }
  return "?";
}

std::vector<PixelFormat> all_formats() {
  std::vector<PixelFormat> formats;
  for (ChannelLayout layout : {ChannelLayout::Grey, ChannelLayout::RGB, ChannelLayout::RGBA}) {
    for (SampleType sample : {SampleType::U8, SampleType::U16, SampleType::F32}) {
      formats.push_back({layout, sample});
    }
  }
  return formats;
}

std::vector<PixelFormat> integer_formats() {
  std::vector<PixelFormat> formats = all_formats();
  std::erase_if(formats, [](PixelFormat f) { return f.sample == SampleType::F32; });
  return formats;
}

namespace {

float special_float(std::mt19937& rng) {
  static const float specials[] = {0.0f,
                                   -0.0f,
                                   1.0f,
                                   0.5f,
                                   0.25f,
                                   0.75f,
                                   0.125f,
                                   1.0f / 3.0f,
                                   0.999f,
                                   std::nextafter(1.0f, 0.0f),
                                   std::nextafter(1.0f, 2.0f),
                                   std::nextafter(0.5f, 0.0f),
                                   std::nextafter(0.5f, 1.0f),
                                   -0.5f,
                                   2.0f,
                                   1e30f,
                                   -1e30f,
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::denorm_min(),
                                   std::numeric_limits<float>::min(),
                                   0.001f,
                                   0.1f,
                                   0.2f,
                                   0.3f,
                                   0.7f,
                                   0.9f};
  std::uniform_int_distribution<std::size_t> pick(0, std::size(specials) * 2 - 1);
  const std::size_t i = pick(rng);
  if (i < std::size(specials)) return specials[i];
  // Also exact multiples of 1/1000 and 1/4096 as float, near bin edges for those counts.
  std::uniform_int_distribution<int> k(0, 4096);
  return (i % 2 == 0) ? static_cast<float>(k(rng) % 1001) / 1000.0f
                      : static_cast<float>(k(rng)) / 4096.0f;
}

}  // namespace

TestImage make_image(PixelFormat format, std::uint32_t width, std::uint32_t height, Content content,
                     std::uint32_t seed, std::size_t pad) {
  const std::uint32_t channels = channel_count(format.layout);
  const std::size_t stride = std::size_t{width} * pixel_bytes(format) + pad;
  TestImage image;
  image.storage.assign((stride * height + 3) / 4 + 1, 0xDEADBEEF);  // padding is not zero
  auto* bytes = reinterpret_cast<std::byte*>(image.storage.data());
  image.view = ImageView{image.storage.data(), width, height, stride, format};

  std::mt19937 rng(seed);
  const std::uint32_t max_value = format.sample == SampleType::U8 ? 255 : 65535;
  std::uniform_int_distribution<std::uint32_t> any_int(0, max_value);
  std::uniform_real_distribution<float> any_float(-0.25f, 1.25f);
  const std::uint32_t flat_int = any_int(rng);
  const float flat_float = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);

  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      for (std::uint32_t c = 0; c < channels; ++c) {
        std::byte* sample =
            bytes + stride * y + (std::size_t{x} * channels + c) * sample_bytes(format.sample);
        // Gradients run along x, shifted per channel so the channels differ.
        const double t =
            width > 1 ? static_cast<double>((x + c * width / 4) % width) / (width - 1) : 0.5;
        if (format.sample == SampleType::F32) {
          float v = 0.0f;
          switch (content) {
            case Content::Random:
              v = any_float(rng);
              break;
            case Content::Flat:
              v = flat_float;
              break;
            case Content::Gradient:
              v = static_cast<float>(t);
              break;
            case Content::FloatSpecials:
              v = special_float(rng);
              break;
          }
          std::memcpy(sample, &v, 4);
          continue;
        }
        std::uint32_t v = 0;
        switch (content) {
          case Content::Random:
            v = any_int(rng);
            break;
          case Content::Flat:
            v = flat_int;
            break;
          case Content::Gradient:
            v = static_cast<std::uint32_t>(std::lround(t * max_value));
            break;
          case Content::FloatSpecials:
            v = (any_int(rng) % 3 == 0) ? 0 : (any_int(rng) % 2 ? max_value : any_int(rng));
            break;
        }
        if (format.sample == SampleType::U8) {
          const auto b = static_cast<std::uint8_t>(v);
          std::memcpy(sample, &b, 1);
        } else {
          const auto h = static_cast<std::uint16_t>(v);
          std::memcpy(sample, &h, 2);
        }
      }
    }
  }
  return image;
}

std::vector<std::byte> pixel_bytes_of(const ImageView& image) {
  const std::size_t row = std::size_t{image.width} * pixel_bytes(image.format);
  std::vector<std::byte> out(row * image.height);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    std::copy_n(image.row(y), row, out.begin() + static_cast<std::ptrdiff_t>(y * row));
  }
  return out;
}

}  // namespace gpuhist::test
