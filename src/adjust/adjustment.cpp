#include "gpuhist/adjustment.hpp"

#include <array>
#include <string>

#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

constexpr std::array<std::string_view, 5> kNames = {"equalize", "clahe", "autolevel", "threshold",
                                                    "match"};

}  // namespace

std::string_view to_string(AdjustKind kind) { return kNames[static_cast<std::size_t>(kind)]; }

std::optional<AdjustKind> parse_adjust_kind(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<AdjustKind>(i);
  }
  return std::nullopt;
}

PixelFormat adjusted_format(PixelFormat format, const Adjustment& adjustment) {
  if (adjustment.kind == AdjustKind::Threshold) return {ChannelLayout::Grey, format.sample};
  return format;
}

std::optional<std::int32_t> adjust(const Context& context, const ImageView& image,
                                   const Adjustment& a, std::span<std::byte> out,
                                   const RunOptions& run, bool on_gpu) {
  validate(image);
  const HistogramOptions tone = tone_options(image.format, a.luma);
  if (a.kind == AdjustKind::Clahe) {
    ClaheOptions clahe;
    clahe.tiles_x = a.tiles_x;
    clahe.tiles_y = a.tiles_y;
    clahe.clip_limit = a.clip_limit;
    clahe.channels = a.channels;
    clahe.luma = a.luma;
    if (on_gpu) {
      context.clahe(image, clahe, out, run);
    } else {
      clahe_cpu(image, clahe, out,
                [&](const ImageView& tile) { return context.compute(tile, tone, run); });
    }
    return std::nullopt;
  }
  if (a.kind == AdjustKind::Match && (a.reference == nullptr || a.reference->bins() != tone.bins)) {
    throw Error(ErrorKind::InvalidArgument,
                "matching needs a reference counted with one bin per value of the image's "
                "bit depth");
  }
  const Histogram histogram = context.compute(image, tone, run);
  Lut lut;
  std::optional<std::int32_t> threshold;
  switch (a.kind) {
    case AdjustKind::Equalize:
    case AdjustKind::Clahe:
      lut = equalize_lut(histogram, image.format, a.channels);
      break;
    case AdjustKind::Autolevel:
      lut = stretch_lut(histogram, image.format, a.channels, a.low, a.high);
      break;
    case AdjustKind::Match:
      lut = match_lut(histogram, *a.reference, image.format, a.channels);
      break;
    case AdjustKind::Threshold: {
      const auto counts = histogram.counts(Channel::Luminance);
      threshold = a.method == ThresholdMethod::Fixed  ? a.threshold
                  : a.method == ThresholdMethod::Otsu ? otsu_threshold(counts)
                                                      : triangle_threshold(counts);
      lut = threshold_lut(image.format, *threshold, a.luma);
      break;
    }
  }
  if (on_gpu) {
    context.apply_lut(image, lut, out);
  } else {
    apply_lut_cpu(image, lut, out);
  }
  return threshold;
}

}  // namespace gpuhist
