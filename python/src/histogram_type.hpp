// gpuhist.Histogram: counts as a read-only (channels, bins) uint64 array,
// statistics, exact merging and pickling.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "arguments.hpp"
#include "gpuhist/histogram.hpp"

namespace gpuhist::python {

void register_histogram(pybind11::module_& m);

// a + b; ValueError unless their bins and channels are the same.
[[nodiscard]] Histogram merged(const Histogram& a, const Histogram& b);

// A Histogram's pickled state, (bins, colour, the counts' bytes), and the
// Histogram it holds (ValueError for anything else).
[[nodiscard]] pybind11::tuple histogram_state(const Histogram& h);
[[nodiscard]] Histogram histogram_from_state(const pybind11::tuple& state);

// The channels' statistics as `gpuhist compute --format json` gives them,
// with the percentiles asked for (keys "p50", "p99.9", …).
[[nodiscard]] pybind11::dict stats_dict(const Histogram& histogram, const Percentiles& percentiles);

}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::Histogram)
