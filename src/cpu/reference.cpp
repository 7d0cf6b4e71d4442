#include "cpu/reference.hpp"

#include <cstring>

#include "core/binning.hpp"

namespace gpuhist::cpu {
namespace {

// One sample as an unsigned integer (for U8/U16) read without aliasing issues.
template <typename T>
T load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
void count_integer(const ImageView& image, const HistogramOptions& options, Histogram& out) {
  const std::uint32_t max_value = sizeof(T) == 1 ? 255U : 65535U;
  const std::uint32_t n = options.bins;
  const std::uint32_t channels = channel_count(image.format.layout);
  const auto weights = binning::int_weights(options.luma);
  auto luminance = out.counts(Channel::Luminance);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::byte* row = image.row(y);
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const std::byte* px = row + std::size_t{x} * channels * sizeof(T);
      if (channels == 1) {
        ++luminance[binning::channel_bin(load<T>(px), max_value, n)];
        continue;
      }
      const std::uint32_t r = load<T>(px);
      const std::uint32_t g = load<T>(px + sizeof(T));
      const std::uint32_t b = load<T>(px + 2 * sizeof(T));
      ++out.counts(Channel::Red)[binning::channel_bin(r, max_value, n)];
      ++out.counts(Channel::Green)[binning::channel_bin(g, max_value, n)];
      ++out.counts(Channel::Blue)[binning::channel_bin(b, max_value, n)];
      ++luminance[binning::luma_bin(binning::luma_sum(weights, r, g, b), max_value, n)];
    }
  }
}

void count_float(const ImageView& image, const HistogramOptions& options, Histogram& out) {
  const std::uint32_t n = options.bins;
  const std::uint32_t channels = channel_count(image.format.layout);
  const auto weights = binning::float_weights(options.luma);
  auto luminance = out.counts(Channel::Luminance);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::byte* row = image.row(y);
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const std::byte* px = row + std::size_t{x} * channels * sizeof(float);
      if (channels == 1) {
        ++luminance[binning::unit_bin(binning::clamp_unit(load<float>(px)), n)];
        continue;
      }
      const float r = binning::clamp_unit(load<float>(px));
      const float g = binning::clamp_unit(load<float>(px + 4));
      const float b = binning::clamp_unit(load<float>(px + 8));
      ++out.counts(Channel::Red)[binning::unit_bin(r, n)];
      ++out.counts(Channel::Green)[binning::unit_bin(g, n)];
      ++out.counts(Channel::Blue)[binning::unit_bin(b, n)];
      ++luminance[binning::unit_bin(binning::float_luma(weights, r, g, b), n)];
    }
  }
}

}  // namespace

Histogram count_reference(const ImageView& image, const HistogramOptions& options) {
  Histogram out(options.bins, is_colour(image.format.layout));
  switch (image.format.sample) {
    case SampleType::U8:
      count_integer<std::uint8_t>(image, options, out);
      break;
    case SampleType::U16:
      count_integer<std::uint16_t>(image, options, out);
      break;
    case SampleType::F32:
      count_float(image, options, out);
      break;
  }
  return out;
}

}  // namespace gpuhist::cpu
