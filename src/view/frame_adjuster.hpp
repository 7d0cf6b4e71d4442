// The viewer's adjustments: a shown picture adjusted by its histogram on the
// viewer's own presenting device, ready for the overlay (8- or 16-bit RGB).
#pragma once

#include <functional>
#include <optional>

#include "adjust/gpu_apply.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/image_file.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::view {

// The adjustments `a` cycles through, in order (match only with a reference);
// none follows the last.
inline constexpr std::array<AdjustKind, 5> kViewerAdjustments = {
    AdjustKind::Equalize, AdjustKind::Clahe, AdjustKind::Autolevel, AdjustKind::Threshold,
    AdjustKind::Match};

// The adjustment after `current` in kViewerAdjustments (nullopt after the
// last), skipping match without a reference.
[[nodiscard]] std::optional<AdjustKind> next_adjustment(std::optional<AdjustKind> current,
                                                        bool can_match);

class FrameAdjuster {
 public:
  using Counter = adjust::Counter;
  // Tables applied on `device`; histograms too large to count there in one
  // pass counted by `count`.
  FrameAdjuster(const vk::Device& device, Counter count);

  // `source` (8- or 16-bit RGB) adjusted by `adjustment`, as RGB: a threshold's
  // grey repeated into the three channels.
  [[nodiscard]] Image adjust(const Image& source, const Adjustment& adjustment);

 private:
  adjust::GpuAdjuster adjuster_;
  Counter count_;
};

}  // namespace gpuhist::view
