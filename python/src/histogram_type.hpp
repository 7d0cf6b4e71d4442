// gpuhist.Histogram: counts as a read-only (channels, bins) uint64 array,
// statistics, exact merging and pickling.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "arguments.hpp"
#include "gpuhist/histogram.hpp"

namespace gpuhist::python {

void register_histogram(pybind11::module_& m);

// The channels' statistics as `gpuhist compute --format json` gives them,
// with the percentiles asked for (keys "p50", "p99.9", …).
[[nodiscard]] pybind11::dict stats_dict(const Histogram& histogram,
                                        const std::vector<double>& percentiles);

}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::Histogram)
