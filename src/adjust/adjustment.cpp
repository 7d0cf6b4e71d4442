#include "gpuhist/adjustment.hpp"

#include <array>
#include <string>

#include "adjust/adjust_backend.hpp"
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

namespace adjust {

ClaheOptions clahe_options(const Adjustment& a) {
  ClaheOptions clahe;
  clahe.tiles_x = a.tiles_x;
  clahe.tiles_y = a.tiles_y;
  clahe.clip_limit = a.clip_limit;
  clahe.channels = a.channels;
  clahe.luma = a.luma;
  return clahe;
}

void check_adjustment(const ImageView& image, const Adjustment& a, std::size_t out_bytes) {
  validate(image);
  const HistogramOptions tone = tone_options(image.format, a.luma);
  const std::uint64_t bytes = image.pixel_count() * pixel_bytes(adjusted_format(image.format, a));
  if (out_bytes < bytes) {
    throw Error(ErrorKind::InvalidArgument, "the adjusted image needs " + std::to_string(bytes) +
                                                " bytes, not " + std::to_string(out_bytes));
  }
  switch (a.kind) {
    case AdjustKind::Clahe:
      validate(clahe_options(a), image.format);
      break;
    case AdjustKind::Autolevel:
      check_clip_percentages(a.low, a.high);
      break;
    case AdjustKind::Match:
      if (a.reference == nullptr || a.reference->bins() != tone.bins) {
        throw Error(ErrorKind::InvalidArgument,
                    "matching needs a reference counted with one bin per value of the image's "
                    "bit depth");
      }
      break;
    case AdjustKind::Equalize:
    case AdjustKind::Threshold:
      break;
  }
}

std::optional<std::int32_t> adjust_with(const AdjustBackend& backend, const ImageView& image,
                                        const Adjustment& a, std::span<std::byte> out) {
  check_adjustment(image, a, out.size());
  if (a.kind == AdjustKind::Clahe) {
    backend.clahe(image, clahe_options(a), out);
    return std::nullopt;
  }
  if (a.kind == AdjustKind::Threshold && a.method == ThresholdMethod::Fixed) {
    backend.apply_lut(image, threshold_lut(image.format, a.threshold, a.luma), out);
    return a.threshold;  // nothing to count
  }
  const Histogram histogram = backend.count(image, tone_options(image.format, a.luma));
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
    case AdjustKind::Threshold: {  // luminance alone (GpuAdjuster counts nothing else)
      const auto counts = histogram.counts(Channel::Luminance);
      threshold =
          a.method == ThresholdMethod::Otsu ? otsu_threshold(counts) : triangle_threshold(counts);
      lut = threshold_lut(image.format, *threshold, a.luma);
      break;
    }
  }
  backend.apply_lut(image, lut, out);
  return threshold;
}

}  // namespace adjust

std::optional<std::int32_t> adjust_image(const Context& context, const ImageView& image,
                                         const Adjustment& a, std::span<std::byte> out,
                                         const RunOptions& run, bool on_gpu) {
  if (on_gpu) return context.adjust(image, a, out, run);
  adjust::AdjustBackend backend;
  backend.count = [&](const ImageView& view, const HistogramOptions& options) {
    return context.compute(view, options, run);
  };
  backend.apply_lut = [&](const ImageView& view, const Lut& lut, std::span<std::byte> to) {
    apply_lut_cpu(view, lut, to);
  };
  // CLAHE's tiles counted with `run` one by one, or, for 16-bit samples, in one
  // pass over the image on the CPU's threads (the same counts): a strategy's
  // 65536-bin histogram for each tile made a 1920x1080 RGB16 frame take 442 ms
  // on a 2-core machine against 43 ms in one pass; 8-bit tiles one by one took
  // 11.5 ms against 12.6 (docs/PERFORMANCE.md, "Adjustments").
  backend.clahe = [&](const ImageView& view, const ClaheOptions& options, std::span<std::byte> to) {
    if (view.format.sample == SampleType::U16) {
      clahe_cpu(view, options, to);
      return;
    }
    const HistogramOptions tone = tone_options(view.format, options.luma);
    clahe_cpu(view, options, to,
              [&](const ImageView& tile) { return context.compute(tile, tone, run); });
  };
  return adjust::adjust_with(backend, image, a, out);
}

}  // namespace gpuhist
