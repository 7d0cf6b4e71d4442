#include "plane_histogram.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "functions.hpp"
#include "histogram_type.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

constexpr const char* kPlanes[] = {"y", "cb", "cr"};

std::string checked_plane(const std::string& plane) {
  for (const char* p : kPlanes) {
    if (plane == p) return plane;
  }
  throw py::value_error("gpuhist: a plane is \"y\", \"cb\" or \"cr\", not " +
                        py::repr(py::str(plane)).cast<std::string>());
}

// a + b where b is a Python object that is a Histogram: the same plane only.
PlaneHistogram plane_merged(const PlaneHistogram& a, const py::handle& b) {
  if (!py::isinstance<PlaneHistogram>(b)) {
    const auto& h = b.cast<const Histogram&>();
    throw py::value_error("gpuhist: a " + a.plane + " plane merges only with " + a.plane +
                          " planes, not with a histogram of " +
                          (h.colour() ? "red, green, blue and luminance" : "luminance"));
  }
  const auto& other = b.cast<const PlaneHistogram&>();
  if (other.plane != a.plane) {
    throw py::value_error("gpuhist: a " + a.plane + " plane merges only with " + a.plane +
                          " planes, not with a " + other.plane + " plane");
  }
  return {merged(a, other), a.plane};
}

// h + other: NotImplemented for what is no Histogram.
py::object plane_sum(const PlaneHistogram& h, const py::object& other) {
  if (!py::isinstance<Histogram>(other)) {
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  }
  return py::cast(plane_merged(h, other));
}

// The plane's stats() as Histogram.stats gives its one row, keyed by the plane.
py::dict plane_stats(const PlaneHistogram& h, const Percentiles& percentiles) {
  py::dict out;
  out[py::str(h.plane)] = stats_dict(h, percentiles)["luminance"];
  return out;
}

// A PlaneHistogram's pickled state: (plane, the Histogram's state).
py::tuple plane_state(const PlaneHistogram& h) {
  return py::make_tuple(h.plane, histogram_state(h));
}

PlaneHistogram plane_from_state(const py::tuple& state) {
  if (state.size() != 2 || !py::isinstance<py::str>(state[0]) ||
      !py::isinstance<py::tuple>(state[1])) {
    throw py::value_error("gpuhist: not a pickled PlaneHistogram");
  }
  Histogram counts = histogram_from_state(state[1].cast<py::tuple>());
  if (counts.colour()) throw py::value_error("gpuhist: not a pickled PlaneHistogram");
  return {std::move(counts), checked_plane(state[0].cast<std::string>())};
}

}  // namespace

py::dict plane_histograms(std::vector<Histogram> counts) {
  py::dict planes;
  for (std::size_t i = 0; i < counts.size() && i < std::size(kPlanes); ++i) {
    planes[kPlanes[i]] = PlaneHistogram(std::move(counts[i]), kPlanes[i]);
  }
  return planes;
}

py::dict compare_planes(const PlaneHistogram& a, const PlaneHistogram& b) {
  if (a.plane != b.plane) {
    throw py::value_error("gpuhist: compared planes need the same name (" + a.plane + " and " +
                          b.plane + ")");
  }
  py::dict out;
  out[py::str(a.plane)] = compare_histograms(a, b)["luminance"];
  return out;
}

std::vector<std::string> drawn_plane(const PlaneHistogram& h, std::vector<std::string> channels) {
  for (std::string& c : channels) {
    if (c == h.plane) {
      c = "luminance";
    } else if (std::find(std::begin(kPlanes), std::end(kPlanes), c) != std::end(kPlanes)) {
      throw py::value_error("gpuhist: a " + h.plane + " plane has no channel '" + c +
                            "': it draws as '" + h.plane + "'");
    }
  }
  return channels;
}

py::dict refuse_plane_with_histogram(const Histogram& /*a*/, const Histogram& /*b*/) {
  throw py::value_error(
      "gpuhist: a plane compares only with a plane of the same name, not with an image's "
      "histogram");
}

void register_plane_histogram(py::module_& m) {
  py::class_<PlaneHistogram, Histogram>(m, "PlaneHistogram", R"doc(
The levels of one Y'CbCr plane as decoded, as gpuhist.video(space="ycbcr")
gives them: a one-channel Histogram named for its plane, "y", "cb" or "cr".

    for index, time, planes in gpuhist.video(path, space="ycbcr"):
        planes["cb"].channels       # ("cb",)
        planes["cb"].stats()["cb"]  # the statistics of its one row
    total = sum(planes["y"] for _, _, planes in frames)   # exact merge

It merges only with the same plane (a ValueError otherwise), and
Histogram.from_dict loads its to_dict() back as a PlaneHistogram.
)doc")
      .def(py::init([](const std::string& plane, Whole bins) {
             const auto n = static_cast<std::uint32_t>(within(bins, "bins", 1, 65536));
             return PlaneHistogram(Histogram(n, false), checked_plane(plane));
           }),
           py::arg("plane"), py::arg("bins") = 256,
           "Zero counts of a plane: \"y\", \"cb\" or \"cr\".")
      .def_readonly("plane", &PlaneHistogram::plane, "The plane: \"y\", \"cb\" or \"cr\".")
      .def_property_readonly(
          "channels", [](const PlaneHistogram& h) { return py::make_tuple(h.plane); },
          "The plane's name, its one row.")
      .def(
          "total", [](const PlaneHistogram& h) { return h.total(Channel::Luminance); },
          "The samples counted (a chroma plane of 4:2:0 video has a quarter of the pixels).")
      .def("stats", &plane_stats, py::arg("percentiles") = Percentiles{},
           "The statistics of the plane, keyed by its name, as `gpuhist video --space ycbcr` "
           "gives them.")
      .def(
          "to_dict",
          [](const PlaneHistogram& h, const Percentiles& percentiles) {
            py::dict out;
            out["bins"] = h.bins();
            const auto counts = h.counts(Channel::Luminance);
            py::dict histograms;
            histograms[py::str(h.plane)] = std::vector<std::uint64_t>(counts.begin(), counts.end());
            out["histograms"] = histograms;
            out["stats"] = plane_stats(h, percentiles);
            return out;
          },
          py::arg("percentiles") = Percentiles{},
          "bins, histograms and stats, keyed by the plane's name.")
      .def("__add__", &plane_sum, py::is_operator(), py::arg("other"))
      .def(
          "__radd__",
          [](const PlaneHistogram& h, const py::object& other) -> py::object {
            // sum() starts from 0; a copy, as Histogram's. Otherwise the
            // same plane either way round.
            if (py::isinstance<py::int_>(other) && other.equal(py::int_(0))) {
              return py::cast(PlaneHistogram(h));
            }
            return plane_sum(h, other);
          },
          py::is_operator(), py::arg("other"))
      .def(
          "__iadd__",
          [](const py::object& self, const py::object& other) -> py::object {
            if (!py::isinstance<Histogram>(other)) {
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            }
            auto& h = self.cast<PlaneHistogram&>();
            h = plane_merged(h, other);
            return self;
          },
          py::is_operator(), py::arg("other"),
          "h += other merges a plane of the same name into h in place.")
      .def(
          "__eq__",
          [](const PlaneHistogram& h, const py::object& other) -> py::object {
            if (!py::isinstance<Histogram>(other)) {
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            }
            if (!py::isinstance<PlaneHistogram>(other)) return py::bool_(false);
            const auto& o = other.cast<const PlaneHistogram&>();
            return py::bool_(o.plane == h.plane &&
                             static_cast<const Histogram&>(o) == static_cast<const Histogram&>(h));
          },
          py::is_operator(), py::arg("other"))
      .def("__repr__",
           [](const PlaneHistogram& h) {
             return "<gpuhist.PlaneHistogram " + h.plane + ", " + std::to_string(h.bins()) +
                    " bins, " + std::to_string(h.total(Channel::Luminance)) + " samples>";
           })
      // Its own state, not Histogram's (whose __setstate__ cannot make one).
      .def(py::pickle(&plane_state, &plane_from_state))
      // Every pickle protocol, as Histogram's: rebuilt by gpuhist._plane_histogram_from_state.
      .def("__reduce__", [](const PlaneHistogram& h) {
        return py::make_tuple(py::module_::import("gpuhist").attr("_plane_histogram_from_state"),
                              py::make_tuple(plane_state(h)));
      });
  m.def("_plane_histogram_from_state", &plane_from_state, "Rebuilds a pickled PlaneHistogram.");
}

}  // namespace gpuhist::python
