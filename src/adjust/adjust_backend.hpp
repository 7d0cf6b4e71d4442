// What an adjustment needs from whoever runs it: a counter, and appliers of
// tables and of CLAHE. GpuAdjuster::adjust (for Context::adjust and the
// viewer) and adjust_image on the CPU each provide one, so the adjustments are
// dispatched in one place (adjust_with).
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "gpuhist/adjustment.hpp"

namespace gpuhist::adjust {

// Counts an image with the given options.
using Counter = std::function<Histogram(const ImageView&, const HistogramOptions&)>;

struct AdjustBackend {
  Counter count;
  std::function<void(const ImageView&, const Lut&, std::span<std::byte>)> apply_lut;
  std::function<void(const ImageView&, const ClaheOptions&, std::span<std::byte>)> clahe;
};

// As gpuhist::adjust_image, on `backend`.
std::optional<std::int32_t> adjust_with(const AdjustBackend& backend, const ImageView& image,
                                        const Adjustment& adjustment, std::span<std::byte> out);

}  // namespace gpuhist::adjust
