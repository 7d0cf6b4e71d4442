// What an adjustment needs from whoever runs it: a counter, and appliers of
// tables and of CLAHE. Context::adjust (GPU), adjust_image on the CPU, and the
// viewer (which owns its own presenting device) each provide one, so the
// adjustments are dispatched in one place (adjust_with).
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "gpuhist/adjustment.hpp"

namespace gpuhist::adjust {

struct AdjustBackend {
  std::function<Histogram(const ImageView&, const HistogramOptions&)> count;
  std::function<void(const ImageView&, const Lut&, std::span<std::byte>)> apply_lut;
  std::function<void(const ImageView&, const ClaheOptions&, std::span<std::byte>)> clahe;
};

// As gpuhist::adjust_image, on `backend`.
std::optional<std::int32_t> adjust_with(const AdjustBackend& backend, const ImageView& image,
                                        const Adjustment& adjustment, std::span<std::byte> out);

}  // namespace gpuhist::adjust
