#include "view/frame_adjuster.hpp"

#include <algorithm>
#include <utility>

#include "view/display_frame.hpp"

namespace gpuhist::view {

std::optional<AdjustKind> next_adjustment(std::optional<AdjustKind> current, bool can_match) {
  if (!current) return kViewerAdjustments.front();
  const auto* at = std::find(kViewerAdjustments.begin(), kViewerAdjustments.end(), *current);
  if (at == kViewerAdjustments.end() || at + 1 == kViewerAdjustments.end()) return std::nullopt;
  if (*(at + 1) == AdjustKind::Match && !can_match) return std::nullopt;
  return *(at + 1);
}

FrameAdjuster::FrameAdjuster(const vk::Device& device, Counter count)
    : adjuster_(device), count_(std::move(count)) {}

Image FrameAdjuster::adjust(const Image& source, const Adjustment& adjustment) {
  Image out =
      Image::allocate(source.width, source.height, adjusted_format(source.format, adjustment));
  (void)adjuster_.adjust(source.view(), adjustment, count_, out.bytes());
  return out.format.layout == ChannelLayout::Grey ? display_frame(out.view()) : out;
}

}  // namespace gpuhist::view
