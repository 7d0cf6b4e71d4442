// The `cpu-reference` strategy: the plain loop over pixels, the oracle every
// other strategy is tested against.
#pragma once

#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::cpu {

// Counts every pixel of a validated image with the exact binning rules
// (README.md, "What is counted").
[[nodiscard]] Histogram count_reference(const ImageView& image, const HistogramOptions& options);

}  // namespace gpuhist::cpu
