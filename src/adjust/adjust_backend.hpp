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

// Throws Error(InvalidArgument) when `adjustment` cannot make `out_bytes` of
// adjusted `image`: a bad view, float samples, a short output, bad parameters,
// a missing or mismatched reference. What every backend checks first.
void check_adjustment(const ImageView& image, const Adjustment& adjustment, std::size_t out_bytes);

// The CLAHE options of a CLAHE adjustment.
[[nodiscard]] ClaheOptions clahe_options(const Adjustment& adjustment);

// Throws Error(InvalidArgument) unless both percentages are within 0..50.
void check_clip_percentages(double low, double high);

// As gpuhist::adjust_image, on `backend`.
std::optional<std::int32_t> adjust_with(const AdjustBackend& backend, const ImageView& image,
                                        const Adjustment& adjustment, std::span<std::byte> out);

}  // namespace gpuhist::adjust
