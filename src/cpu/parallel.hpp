// The `cpu` strategy: rows split across threads, each counting into private
// histograms with lookup tables, summed at the end.
#pragma once

#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::cpu {

// Counts a validated image on all hardware threads; identical to count_reference.
[[nodiscard]] Histogram count_parallel(const ImageView& image, const HistogramOptions& options);

}  // namespace gpuhist::cpu
