#include "histogram_type.hpp"

#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "gpuhist/error.hpp"
#include "gpuhist/statistics.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

py::tuple channel_names(const Histogram& h) {
  py::tuple names(h.channels().size());
  std::size_t i = 0;
  for (Channel c : h.channels()) names[i++] = py::str(std::string(to_string(c)));
  return names;
}

py::array counts_array(const Histogram& h) {
  const auto channels = static_cast<py::ssize_t>(h.channels().size());
  py::array_t<std::uint64_t> out({channels, static_cast<py::ssize_t>(h.bins())});
  auto* data = out.mutable_data();
  std::size_t row = 0;
  for (Channel c : h.channels()) {
    const auto counts = h.counts(c);
    std::memcpy(data + row * h.bins(), counts.data(), counts.size_bytes());
    ++row;
  }
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return out;
}

}  // namespace

Histogram merged(const Histogram& a, const Histogram& b) {
  if (a.bins() != b.bins() || a.colour() != b.colour()) {
    const auto described = [](const Histogram& h) {
      return std::to_string(h.bins()) + " bins, " +
             (h.colour() ? "red, green, blue and luminance" : "luminance alone");
    };
    throw py::value_error("gpuhist: histograms merge only with the same bins and channels (" +
                          described(a) + " against " + described(b) + ")");
  }
  Histogram out = a;
  out += b;
  return out;
}

// A Histogram's pickled state: (bins, colour, the counts' bytes).
py::tuple histogram_state(const Histogram& h) {
  const py::array counts = counts_array(h);
  return py::make_tuple(h.bins(), h.colour(),
                        py::bytes(static_cast<const char*>(counts.data()),
                                  static_cast<std::size_t>(counts.nbytes())));
}

// The Histogram a pickled state holds; ValueError for anything else.
Histogram histogram_from_state(const py::tuple& state) {
  if (state.size() != 3 || !py::isinstance<py::int_>(state[0]) ||
      !py::isinstance<py::bool_>(state[1]) || !py::isinstance<py::bytes>(state[2])) {
    throw py::value_error("gpuhist: not a pickled Histogram");
  }
  const py::int_ bins_value = state[0];
  if (bins_value < py::int_(1) || bins_value > py::int_(65536)) {
    throw py::value_error("gpuhist: not a pickled Histogram");
  }
  const auto bins = bins_value.cast<long long>();
  Histogram h(static_cast<std::uint32_t>(bins), state[1].cast<bool>());
  const std::string bytes = state[2].cast<std::string>();
  const std::size_t row = std::size_t{h.bins()} * sizeof(std::uint64_t);
  if (bytes.size() != row * h.channels().size()) {
    throw py::value_error("gpuhist: not a pickled Histogram");
  }
  std::size_t i = 0;
  for (Channel c : h.channels()) {
    std::memcpy(h.counts(c).data(), bytes.data() + i * row, row);
    ++i;
    std::uint64_t sum = 0;
    for (const std::uint64_t n : h.counts(c)) {
      if (__builtin_add_overflow(sum, n, &sum)) {
        throw py::value_error("gpuhist: the " + std::string(to_string(c)) +
                              " counts add up to more than 2**64 - 1");
      }
    }
  }
  return h;
}

py::dict stats_dict(const Histogram& histogram, const Percentiles& percentiles) {
  py::dict out;
  for (Channel c : histogram.channels()) {
    const auto counts = histogram.counts(c);
    const ChannelStats s = statistics(counts);
    // Nothing counted (an empty array): every statistic but the count is undefined, None.
    const auto value = [&](auto v) -> py::object {
      return s.count != 0 ? py::cast(v) : py::object(py::none());
    };
    py::dict d;
    d["count"] = s.count;
    d["min"] = value(s.min);
    d["max"] = value(s.max);
    d["mean"] = value(s.mean);
    d["stddev"] = value(s.stddev);
    d["median"] = value(s.median);
    d["p1"] = value(s.p1);
    d["p99"] = value(s.p99);
    d["shadows"] = value(s.shadows);
    d["highlights"] = value(s.highlights);
    for (const double p : percentiles.values) {
      if (!std::isfinite(p) || p < 0 || p > 100) {
        throw py::value_error("gpuhist: percentiles are 0 to 100");
      }
      const std::string key = percentile_name(p);
      if (!d.contains(key)) d[py::str(key)] = value(percentile(counts, p));
    }
    out[py::str(std::string(to_string(c)))] = d;
  }
  return out;
}

void register_histogram(py::module_& m) {
  m.def(
      "_stats_table",
      [](const std::vector<const Histogram*>& histograms) {
        // Rows of (red, green, blue, luminance) x the ten statistics of stats(), NaN for the
        // channels a grey histogram lacks: a data set's per-file statistics in one array.
        constexpr py::ssize_t kFields = 10;
        const auto n = static_cast<py::ssize_t>(histograms.size());
        py::array_t<double> out({n, py::ssize_t{4}, kFields});
        double* row = out.mutable_data();
        for (const Histogram* h : histograms) {
          if (h == nullptr) throw py::type_error("gpuhist: _stats_table takes Histograms");
          std::fill(row, row + 4 * kFields, std::nan(""));
          for (Channel c : h->channels()) {
            const ChannelStats s = statistics(h->counts(c));
            double* f = row + static_cast<int>(c) * kFields;
            f[0] = static_cast<double>(s.count);
            if (s.count == 0) continue;  // the other fields undefined: NaN
            f[1] = s.min;
            f[2] = s.max;
            f[3] = s.mean;
            f[4] = s.stddev;
            f[5] = s.median;
            f[6] = s.p1;
            f[7] = s.p99;
            f[8] = s.shadows;
            f[9] = s.highlights;
          }
          row += 4 * kFields;
        }
        return out;
      },
      "The statistics of stats() for many histograms as one float64 array of shape (n, 4, 10): "
      "channels red, green, blue, luminance (NaN where a grey histogram has none), fields count, "
      "min, max, mean, stddev, median, p1, p99, shadows, highlights.");
  m.def(
      "_merge_any",
      [](Histogram a, const Histogram& b) {
        a += b;  // grey into colour adds luminance, as `gpuhist compute --merge` does
        return a;
      },
      "The sum of two histograms of the same bins, grey and colour mixed as the command line's "
      "--merge mixes them (a grey image adds to luminance).");
  py::class_<Histogram>(m, "Histogram", R"doc(
Histograms of one image, or the exact sum over several: red, green, blue and
luminance for colour images, luminance alone for grey ones, each of `bins`
64-bit counts.

    h = gpuhist.histogram(image)
    h.counts            # read-only numpy uint64 array, shape (channels, bins)
    h.channels          # ("red", "green", "blue", "luminance") or ("luminance",)
    h.stats()           # the command line's statistics for each channel
    total = h1 + h2     # exact merge (same bins and channels)
    total = sum(histograms)
    total += h          # merges into total itself, as += adds into a numpy array
)doc")
      .def(py::init([](Whole bins, bool colour) {
             return Histogram(static_cast<std::uint32_t>(within(bins, "bins", 1, 65536)), colour);
           }),
           py::arg("bins") = 256, py::arg("colour") = true,
           "Zero counts: R, G, B and luminance when colour, else luminance alone.")
      .def_property_readonly("bins", &Histogram::bins, "Bins of each channel.")
      .def_property_readonly("channels", &channel_names, "The channels' names, in row order.")
      .def_property_readonly(
          "counts", &counts_array,
          "The counts, a read-only numpy uint64 array of shape (channels, bins).")
      .def(
          "total", [](const Histogram& h) { return h.total(Channel::Luminance); },
          "The pixels counted: the luminance row's sum, to which every image adds (a grey "
          "image merged into a colour total adds to luminance alone).")
      .def("stats", &stats_dict, py::arg("percentiles") = Percentiles{},
           "The statistics of each channel, as `gpuhist compute --format json` gives them: count, "
           "min, max, mean, stddev, median, p1, p99, shadows, highlights, and pNN for each "
           "percentile asked for (0 to 100: one number, or a list of them).")
      .def(
          "to_dict",
          [](const Histogram& h, const Percentiles& percentiles) {
            py::dict out;
            out["bins"] = h.bins();
            py::dict histograms;
            for (Channel c : h.channels()) {
              const auto counts = h.counts(c);
              histograms[py::str(std::string(to_string(c)))] =
                  std::vector<std::uint64_t>(counts.begin(), counts.end());
            }
            out["histograms"] = histograms;
            out["stats"] = stats_dict(h, percentiles);
            return out;
          },
          py::arg("percentiles") = Percentiles{},
          "bins, histograms and stats in the shape of `gpuhist compute --format json`.")
      .def("__add__", &merged, py::is_operator(), py::arg("other"))
      .def(
          "__radd__",
          [](const Histogram& h, const py::object& other) -> py::object {
            // sum() starts from 0.
            // A copy: `total = 0; total += h` must not merge into h itself.
            if (py::isinstance<py::int_>(other) && other.equal(py::int_(0)))
              return py::cast(Histogram(h));
            if (!py::isinstance<Histogram>(other))
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::cast(merged(other.cast<const Histogram&>(), h));
          },
          py::is_operator(), py::arg("other"))
      .def(
          "__iadd__",
          [](const py::object& self, const py::object& other) -> py::object {
            // An operand of a subclass (a PlaneHistogram) has rules of its own:
            // Python then tries self + other, where the subclass's __radd__ says them.
            const auto type_of = [](const py::object& o) {
              return reinterpret_cast<PyTypeObject*>(o.get_type().ptr());
            };
            if (!py::isinstance<Histogram>(other) ||
                (type_of(other) != type_of(self) &&
                 PyType_IsSubtype(type_of(other), type_of(self)) != 0)) {
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            }
            auto& h = self.cast<Histogram&>();
            h = merged(h, other.cast<const Histogram&>());
            return self;  // the same object, merged in place
          },
          py::is_operator(), py::arg("other"),
          "h += other merges other into h in place, as += adds into a numpy array: every name "
          "of that Histogram (a FileHistogram's .histogram too) sees the sum. h = h + other "
          "makes a new one.")
      .def(
          "__array__",
          [](const Histogram& h, const py::object& dtype, const py::object& copy) {
            // numpy.asarray(h): the counts (a new array each time, so copy=False
            // cannot be honoured and is refused, as numpy 2 asks).
            if (!copy.is_none() && !py::bool_(copy)) {
              throw py::value_error("gpuhist: a Histogram's counts are always copied");
            }
            py::array counts = counts_array(h);
            // A new array that nothing else holds: writable, as numpy 2's
            // np.array(h) trusts __array__(copy=True) to give.
            counts.attr("setflags")(py::arg("write") = true);
            return dtype.is_none() ? counts : py::array(counts.attr("astype")(dtype));
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none(),
          "numpy.asarray(h): the counts, a (channels, bins) uint64 array.")
      .def(py::self == py::self)  // NOLINT(misc-redundant-expression)
      .def("__repr__",
           [](const Histogram& h) {
             return "<gpuhist.Histogram " + std::to_string(h.bins()) + " bins, " +
                    (h.colour() ? std::string("red, green, blue, luminance")
                                : std::string("luminance")) +
                    ", " + std::to_string(h.total(Channel::Luminance)) + " pixels>";
           })
      .def(py::pickle(&histogram_state, &histogram_from_state))
      // Every pickle protocol, 0 and 1 included (whose default reduction
      // cannot make a pybind11 object): rebuilt by gpuhist._histogram_from_state.
      .def("__reduce__", [](const Histogram& h) {
        return py::make_tuple(py::module_::import("gpuhist").attr("_histogram_from_state"),
                              py::make_tuple(histogram_state(h)));
      });
  m.def("_histogram_from_state", &histogram_from_state, "Rebuilds a pickled Histogram.");
}

}  // namespace gpuhist::python
