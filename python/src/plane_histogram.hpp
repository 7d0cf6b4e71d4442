// gpuhist.PlaneHistogram: the levels of one Y'CbCr plane as decoded ("y",
// "cb" or "cr"), a one-channel Histogram named for its plane, that merges
// only with the same plane.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "gpuhist/histogram.hpp"

namespace gpuhist::python {

struct PlaneHistogram : Histogram {
  PlaneHistogram(Histogram counts, std::string name)
      : Histogram(std::move(counts)), plane(std::move(name)) {}
  std::string plane;  // "y", "cb" or "cr"
};

// {"y": …, "cb": …, "cr": …} of the planes' counts, in that order (Y' alone
// for a grey picture).
[[nodiscard]] pybind11::dict plane_histograms(std::vector<Histogram> counts);

// compare(a, b) of two planes of one name: the six metrics keyed by the plane
// (ValueError for planes of two names).
[[nodiscard]] pybind11::dict compare_planes(const PlaneHistogram& a, const PlaneHistogram& b);

// The channels draw() is asked for on a plane: its own name stands for its
// one row (drawn as a grey histogram's luminance); another plane's name is a
// ValueError.
[[nodiscard]] std::vector<std::string> drawn_plane(const PlaneHistogram& h,
                                                   std::vector<std::string> channels);

// compare(plane, histogram) or compare(histogram, plane): a ValueError.
[[noreturn]] pybind11::dict refuse_plane_with_histogram(const Histogram& a, const Histogram& b);

// After register_histogram: PlaneHistogram derives from Histogram.
void register_plane_histogram(pybind11::module_& m);

}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::python::PlaneHistogram)
