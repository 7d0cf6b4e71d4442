// Tables applied on the CPU: the reference the GPU applier is tested against.

#include "core/binning.hpp"
#include "core/row_parts.hpp"
#include "gpuhist/adjust.hpp"

namespace gpuhist {
namespace {

template <typename Sample>
void apply_rows(const ImageView& image, const Lut& lut, std::byte* out, std::uint32_t y0,
                std::uint32_t y1) {
  const std::uint32_t channels = channel_count(image.format.layout);
  const bool colour = is_colour(image.format.layout);
  const auto table = [&](Channel c) { return lut.tables[static_cast<std::size_t>(c)].data(); };
  const std::uint16_t* luminance = table(Channel::Luminance);
  const std::uint32_t max = lut.sample == SampleType::U8 ? 255U : 65535U;
  const binning::IntWeights weights = binning::int_weights(lut.luma);
  const bool to_grey = lut.target == LutTarget::Luminance;
  const std::uint32_t out_channels = to_grey ? 1U : channels;
  for (std::uint32_t y = y0; y < y1; ++y) {
    const Sample* in = reinterpret_cast<const Sample*>(image.row(y));
    Sample* dst = reinterpret_cast<Sample*>(out) + std::size_t{y} * image.width * out_channels;
    for (std::uint32_t x = 0; x < image.width; ++x, in += channels, dst += out_channels) {
      if (!colour) {
        dst[0] = static_cast<Sample>(luminance[in[0]]);
      } else if (to_grey) {
        // The pixel's luminance bin with one bin per value, as the histogram counted it.
        const std::uint32_t sum = binning::luma_sum(weights, in[0], in[1], in[2]);
        dst[0] = static_cast<Sample>(luminance[binning::luma_bin(sum, max, max + 1)]);
      } else {
        dst[0] = static_cast<Sample>(table(Channel::Red)[in[0]]);
        dst[1] = static_cast<Sample>(table(Channel::Green)[in[1]]);
        dst[2] = static_cast<Sample>(table(Channel::Blue)[in[2]]);
        if (channels == 4) dst[3] = in[3];  // alpha as it was
      }
    }
  }
}

}  // namespace

void apply_lut_cpu(const ImageView& image, const Lut& lut, std::span<std::byte> out) {
  validate_lut(image, lut, out.size());
  const std::uint32_t parts = row_parts(image.height, (1U << 20) / image.width + 1);
  for_row_parts(image.height, parts, [&](std::uint32_t, std::uint32_t y0, std::uint32_t y1) {
    if (image.format.sample == SampleType::U8) {
      apply_rows<std::uint8_t>(image, lut, out.data(), y0, y1);
    } else {
      apply_rows<std::uint16_t>(image, lut, out.data(), y0, y1);
    }
  });
}

}  // namespace gpuhist
