// Tables of an image, from its histogram, for each way of using them.
#include <functional>
#include <string>

#include "gpuhist/adjust.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

using ChannelTable = std::function<std::vector<std::uint16_t>(Channel)>;

std::uint32_t table_size(SampleType sample) { return sample == SampleType::U8 ? 256U : 65536U; }

void check_histogram(const Histogram& histogram, PixelFormat format) {
  const std::uint32_t size = tone_options(format).bins;
  if (histogram.bins() != size || histogram.colour() != is_colour(format.layout)) {
    throw Error(ErrorKind::InvalidArgument, "the histogram must have one bin per sample value (" +
                                                std::to_string(size) +
                                                ") and the image's channels, to make its tables");
  }
}

// R, G and B each by `make` (or luminance's table on all three); grey: luminance.
Lut tables_of(PixelFormat format, ToneChannels use, const ChannelTable& make) {
  validate(use);
  Lut lut;
  lut.sample = format.sample;
  if (!is_colour(format.layout)) {
    lut.tables[static_cast<std::size_t>(Channel::Luminance)] = make(Channel::Luminance);
    return lut;
  }
  const std::vector<std::uint16_t> luminance =
      use == ToneChannels::Luminance ? make(Channel::Luminance) : std::vector<std::uint16_t>{};
  for (Channel c : {Channel::Red, Channel::Green, Channel::Blue}) {
    lut.tables[static_cast<std::size_t>(c)] = use == ToneChannels::Luminance ? luminance : make(c);
  }
  return lut;
}

}  // namespace

void validate(ToneChannels use) {
  if (use != ToneChannels::Each && use != ToneChannels::Luminance) {
    throw Error(ErrorKind::InvalidArgument, "unknown tone channels (each or luminance)");
  }
}

HistogramOptions tone_options(PixelFormat format, LumaWeights luma) {
  validate(format);
  if (format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument,
                "adjustments need 8- or 16-bit samples, not float (" + to_string(format) + ")");
  }
  const HistogramOptions options{table_size(format.sample), luma};
  validate(options);  // the weights
  return options;
}

Lut equalize_lut(const Histogram& histogram, PixelFormat format, ToneChannels use) {
  check_histogram(histogram, format);
  return tables_of(format, use, [&](Channel c) { return equalize_table(histogram.counts(c)); });
}

Lut stretch_lut(const Histogram& histogram, PixelFormat format, ToneChannels use, double low,
                double high) {
  check_histogram(histogram, format);
  return tables_of(format, use,
                   [&](Channel c) { return stretch_table(histogram.counts(c), low, high); });
}

Lut match_lut(const Histogram& histogram, const Histogram& reference, PixelFormat format,
              ToneChannels use) {
  check_histogram(histogram, format);
  if (reference.bins() != histogram.bins()) {
    throw Error(ErrorKind::InvalidArgument,
                "the reference must have as many bins as the image's histogram");
  }
  return tables_of(format, use, [&](Channel c) {
    // A grey reference gives its luminance to every channel.
    const Channel from = reference.has(c) ? c : Channel::Luminance;
    return match_table(histogram.counts(c), reference.counts(from));
  });
}

Lut threshold_lut(PixelFormat format, std::int32_t threshold, LumaWeights luma) {
  (void)tone_options(format);
  Lut lut;
  lut.sample = format.sample;
  lut.target = LutTarget::Luminance;
  lut.luma = luma;
  lut.tables[static_cast<std::size_t>(Channel::Luminance)] =
      threshold_table(table_size(format.sample), threshold);
  return lut;
}

PixelFormat lut_output_format(PixelFormat format, const Lut& lut) {
  if (lut.target == LutTarget::Luminance) return {ChannelLayout::Grey, format.sample};
  return format;
}

void validate_lut(const ImageView& image, const Lut& lut, std::size_t out_bytes) {
  validate(image);
  (void)tone_options(image.format, lut.luma);
  if (lut.target != LutTarget::Samples && lut.target != LutTarget::Luminance) {
    throw Error(ErrorKind::InvalidArgument, "unknown table target (samples or luminance)");
  }
  if (lut.sample != image.format.sample) {
    throw Error(ErrorKind::InvalidArgument, "the tables are for other samples than the image's");
  }
  const std::uint32_t size = table_size(lut.sample);
  const auto needs = [&](Channel c) {
    if (lut.tables[static_cast<std::size_t>(c)].size() != size) {
      throw Error(ErrorKind::InvalidArgument, "the " + std::string(to_string(c)) + " table needs " +
                                                  std::to_string(size) + " values");
    }
  };
  if (lut.target == LutTarget::Luminance || !is_colour(image.format.layout)) {
    needs(Channel::Luminance);
  } else {
    for (Channel c : {Channel::Red, Channel::Green, Channel::Blue}) needs(c);
  }
  const std::uint64_t bytes =
      image.pixel_count() * pixel_bytes(lut_output_format(image.format, lut));
  if (out_bytes < bytes) {
    throw Error(ErrorKind::InvalidArgument, "the output needs " + std::to_string(bytes) +
                                                " bytes, not " + std::to_string(out_bytes));
  }
}

}  // namespace gpuhist
