#include "view/frame_adjuster.hpp"

#include <algorithm>
#include <utility>

#include "view/display_frame.hpp"

namespace gpuhist::view {

std::optional<AdjustKind> next_adjustment(std::optional<AdjustKind> current) {
  if (!current) return kViewerAdjustments.front();
  const auto* at = std::find(kViewerAdjustments.begin(), kViewerAdjustments.end(), *current);
  if (at == kViewerAdjustments.end() || at + 1 == kViewerAdjustments.end()) return std::nullopt;
  return *(at + 1);
}

FrameAdjuster::FrameAdjuster(const vk::Device& device, Counter count)
    : adjuster_(device), count_(std::move(count)) {
  // Counted on the device when the frame fits one buffer, and then adjusted
  // there without a second upload; otherwise counted by `count`.
  backend_.count = [this](const ImageView& image, const HistogramOptions& options) {
    if (std::optional<Histogram> h = adjuster_.count_resident(image, options.luma)) {
      resident_ = true;
      return std::move(*h);
    }
    return count_(image, options);
  };
  backend_.apply_lut = [this](const ImageView& image, const Lut& lut, std::span<std::byte> out) {
    adjuster_.apply(image, lut, out, resident_);
  };
  backend_.clahe = [this](const ImageView& image, const ClaheOptions& options,
                          std::span<std::byte> out) {
    const HistogramOptions tone = tone_options(image.format, options.luma);
    adjuster_.clahe(
        image, options, [&](const ImageView& tile) { return count_(tile, tone); }, out);
  };
}

Image FrameAdjuster::adjust(const Image& source, const Adjustment& adjustment) {
  Image out;
  out.width = source.width;
  out.height = source.height;
  out.format = adjusted_format(source.format, adjustment);
  out.storage.resize((source.view().pixel_count() * pixel_bytes(out.format) + 3) / 4);
  resident_ = false;
  adjust::adjust_with(backend_, source.view(), adjustment,
                      std::as_writable_bytes(std::span(out.storage)));
  return out.format.layout == ChannelLayout::Grey ? display_frame(out.view()) : out;
}

}  // namespace gpuhist::view
