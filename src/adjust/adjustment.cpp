#include "gpuhist/adjustment.hpp"

#include <array>
#include <string>

#include "adjust/adjust_backend.hpp"
#include "adjust/recipes.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
const AdjustmentInfo& info(AdjustKind kind) {
  const auto row = static_cast<std::size_t>(kind);
  if (row >= kAdjustments.size()) {
    throw Error(ErrorKind::InvalidArgument, "unknown adjustment kind " + std::to_string(row));
  }
  return kAdjustments[row];
}

std::string_view to_string(AdjustKind kind) { return info(kind).name; }

std::optional<AdjustKind> parse_adjust_kind(std::string_view name) {
  for (const AdjustmentInfo& row : kAdjustments) {
    if (row.name == name) return row.kind;
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
  // Enumerations cast from numbers that name none, before anything is looked up by them.
  if (static_cast<std::uint32_t>(a.kind) > static_cast<std::uint32_t>(AdjustKind::Match)) {
    throw Error(ErrorKind::InvalidArgument, "unknown adjustment");
  }
  if (static_cast<std::uint32_t>(a.method) > static_cast<std::uint32_t>(ThresholdMethod::Fixed)) {
    throw Error(ErrorKind::InvalidArgument, "unknown threshold method");
  }
  validate(a.channels);
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
  if (recipe(a.kind).tiled) {
    backend.clahe(image, clahe_options(a), out);
    return std::nullopt;
  }
  if (a.kind == AdjustKind::Threshold && a.method == ThresholdMethod::Fixed) {
    backend.apply_lut(image, threshold_lut(image.format, a.threshold, a.luma), out);
    return a.threshold;  // nothing to count
  }
  const Histogram histogram = backend.count(image, tone_options(image.format, a.luma));
  std::optional<std::int32_t> threshold;
  backend.apply_lut(image, recipe(a.kind).host_table(histogram, image.format, a, threshold), out);
  return threshold;
}

}  // namespace adjust

}  // namespace gpuhist
