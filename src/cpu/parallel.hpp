// The `cpu` strategy: rows split across threads, each counting into private
// histograms with lookup tables, summed at the end.
#pragma once

#include <cstdint>
#include <functional>

#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::cpu {

// Threads count_parallel splits an image of width x height into, by rows:
// enough rows per thread that starting it is worth it (about 64k pixels).
[[nodiscard]] std::uint32_t count_threads(std::uint32_t width, std::uint32_t height);

// Counts a validated image on up to `max_threads` threads (0: every core);
// identical to count_reference. `poll` (RunOptions::poll), where given, is
// called on the calling thread between its blocks of rows (about a megapixel
// each); what it throws stops every thread at its next block and is rethrown.
[[nodiscard]] Histogram count_parallel(const ImageView& image, const HistogramOptions& options,
                                       std::uint32_t max_threads = 0,
                                       const std::function<void()>& poll = {});

}  // namespace gpuhist::cpu
