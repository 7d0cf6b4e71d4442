// The gpuhist Python module (gpuhist._gpuhist): exact image histograms of
// numpy arrays and image files on the GPU or the CPU.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "adjust_functions.hpp"
#include "arrays.hpp"
#include "errors.hpp"
#include "file_functions.hpp"
#include "files_iter.hpp"
#include "functions.hpp"
#include "gpuhist/version.hpp"
#include "histogram_type.hpp"
#include "plane_histogram.hpp"
#include "video_iter.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace gpuhist::python {
namespace {

const char* const kHistogramDoc = R"doc(
The histograms of an image: red, green, blue and luminance for colour images,
luminance for grey ones, each of `bins` exact 64-bit counts.

image: a numpy array, a CPU tensor with __dlpack__ (PyTorch, JAX; a tensor on
    a GPU is a TypeError), or anything numpy.asarray shares, of uint8, uint16
    or float32, shaped (H, W) or (H, W, 1) grey,
    (H, W, 3) RGB or (H, W, 4) RGBA (alpha is not counted). Read in place when
    each row's pixels are packed, in any row order; rows or columns repeated
    (a stride of 0, as numpy.broadcast_to makes) are counted once and their
    counts multiplied; other strides are copied 16 MiB at a time.
bins: 1 to 65536. An integer sample v falls in bin min(v * bins // M, bins - 1),
    M = 255 for uint8 and 65535 for uint16; a float sample, clamped to [0, 1]
    (NaN as 0), in bin min(floor(float32(v * bins)), bins - 1). Luminance of
    uint8 and uint16 samples falls in bin min(S * bins // (10000 * M), bins - 1),
    S = 2126 R + 7152 G + 722 B (601: 2990, 5870, 1140), in 64-bit integers
    (S is not divided by 10000 first); for float32 it is (0.2126 r + 0.7152 g) +
    0.0722 b in float32 (601: 0.299, 0.587, 0.114) of the clamped samples,
    each operation rounded, then clamped and binned as a float sample.
luma: the luminance weights, "709" (sRGB) or "601" (or 709, 601).
strategy: None (the faster of "cpu" and "gpu" for the image's size), or one of
    "cpu-reference", "cpu", "gpu-single", "gpu-atomic", "gpu-chunks-sum",
    "gpu-chunks-reduce", "gpu". Every strategy gives the same counts.
device (gpuhist.histogram; a Context has its own): None or "auto" (a hardware
    GPU, else the CPU, with the software Vulkan device where a GPU strategy asks
    for one), "cpu" (no Vulkan), an index from gpuhist.devices() (0 or "0"), or
    a piece of a device's name. Each is opened once and shared.

Raises TypeError for another dtype or shape, ValueError for bad options,
gpuhist.GpuError for a GPU strategy without a device or a device failure.
)doc";

}  // namespace
}  // namespace gpuhist::python

PYBIND11_MODULE(_gpuhist, m) {
  using namespace gpuhist;
  using namespace gpuhist::python;
  m.doc() = "Exact image histograms on the GPU (Vulkan) or the CPU, for numpy arrays and files.";
  m.attr("__version__") = std::string(kVersion);
  register_errors(m);
  register_histogram(m);
  register_plane_histogram(m);

  py::class_<SharedContext, std::shared_ptr<SharedContext>> context(m, "Context", R"doc(
A device opened once and reused: "auto" (a hardware GPU, else the software
Vulkan device when something needs one, else the CPU), "cpu" (no Vulkan), a
device index from gpuhist.devices(), or a piece of a device's name. Safe to
share between threads; calls on one context run one at a time, without the GIL.
In a process forked after it was used (a multiprocessing "fork" pool's worker,
a DataLoader's), its first call opens the device again for that process; such
a child ends with os._exit, as those workers do (Mesa's drivers wait at a
normal exit for the parent's threads).
)doc");
  // device=None is "auto", as the module's functions take it.
  context
      .def(py::init([](const std::optional<Name>& device) {
             return open_context(device ? *device : Name{"auto"});
           }),
           "device"_a = "auto")
      .def_property_readonly(
          "device",
          [](const SharedContext& c) -> std::optional<std::string> {
            const DeviceInfo* d = c.context()->device();
            return d ? std::optional<std::string>(d->name) : std::nullopt;
          },
          "The Vulkan device's name, or None for the CPU alone.")
      .def("__repr__",
           // The device asked for: naming the one in use would open a deferred one.
           [](const SharedContext& c) { return "<gpuhist.Context device='" + c.requested + "'>"; })
      .def("__reduce__",
           [](const py::object&) -> py::object {
             throw py::type_error(
                 "gpuhist: a Context holds an open device and cannot be pickled: open one where "
                 "it is needed, gpuhist.Context(device)");
           })
      .def("histogram", &SharedContext::histogram, "image"_a, "bins"_a = 256, py::kw_only(),
           "luma"_a = "709", "strategy"_a = std::nullopt, kHistogramDoc)
      .def(
          "draw",
          [](const SharedContext& self, const PlaneHistogram& h, WholePair size,
             const std::string& scale, const ChannelNames& channels, Whole background) {
            return self.draw(h, size, scale, drawn_plane(h, channels.names), background);
          },
          "histogram"_a, py::kw_only(),
          "size"_a = std::pair<std::uint32_t, std::uint32_t>{256, 100}, "scale"_a = "clip",
          "channels"_a = ChannelNames{{"red", "green", "blue"}}, "background"_a = 0x333333)
      .def(
          "draw",
          [](const SharedContext& self, const Histogram& h, WholePair size,
             const std::string& scale, const ChannelNames& channels,
             Whole background) { return self.draw(h, size, scale, channels.names, background); },
          "histogram"_a, py::kw_only(),
          "size"_a = std::pair<std::uint32_t, std::uint32_t>{256, 100}, "scale"_a = "clip",
          "channels"_a = ChannelNames{{"red", "green", "blue"}}, "background"_a = 0x333333,
          "The histogram drawn as `gpuhist draw` draws it: an (H, W, 4) uint8 RGBA array.");

  // Image files and videos, where the io layer is built (not GPUHIST_ENGINE_ONLY).
#if GPUHIST_PYTHON_FILES
  register_file_functions(m, context);
  register_files(m, context);
  register_video(m, context);
#endif
  m.attr("has_files") = static_cast<bool>(GPUHIST_PYTHON_FILES);

  m.def(
      "histogram",
      [](const ArrayLike& image, Whole bins, const Name& luma,
         const std::optional<std::string>& strategy, const std::optional<Name>& device) {
        return default_context(device)->histogram(image, bins, luma, strategy);
      },
      "image"_a, "bins"_a = 256, py::kw_only(), "luma"_a = "709", "strategy"_a = std::nullopt,
      "device"_a = std::nullopt, kHistogramDoc);
  const char* const compare_doc =
      "The six comparison metrics of each channel both have (correlation, chi_square, "
      "intersection, bhattacharyya, kl_divergence, emd), as `gpuhist compute --compare` gives; "
      "two PlaneHistograms of one plane are keyed by its name.";
  // Planes first: pybind11 tries overloads in order, and a plane is a Histogram.
  m.def("compare", &compare_planes, "histogram"_a, "reference"_a);
  m.def(
      "compare",
      [](const PlaneHistogram& a, const Histogram& b) { return refuse_plane_with_histogram(a, b); },
      "histogram"_a, "reference"_a);
  m.def(
      "compare",
      [](const Histogram& a, const PlaneHistogram& b) { return refuse_plane_with_histogram(a, b); },
      "histogram"_a, "reference"_a);
  m.def("compare", &compare_histograms, "histogram"_a, "reference"_a, compare_doc);
  m.def(
      "draw",
      [](const PlaneHistogram& h, WholePair size, const std::string& scale,
         const ChannelNames& channels, Whole background, const std::optional<Name>& device) {
        return default_context(device ? device : Name{"cpu"})
            ->draw(h, size, scale, drawn_plane(h, channels.names), background);
      },
      "histogram"_a, py::kw_only(), "size"_a = std::pair<std::uint32_t, std::uint32_t>{256, 100},
      "scale"_a = "clip", "channels"_a = ChannelNames{{"red", "green", "blue"}},
      "background"_a = 0x333333, "device"_a = std::nullopt);
  m.def(
      "draw",
      [](const Histogram& h, WholePair size, const std::string& scale, const ChannelNames& channels,
         Whole background, const std::optional<Name>& device) {
        return default_context(device ? device : Name{"cpu"})
            ->draw(h, size, scale, channels.names, background);
      },
      "histogram"_a, py::kw_only(), "size"_a = std::pair<std::uint32_t, std::uint32_t>{256, 100},
      "scale"_a = "clip", "channels"_a = ChannelNames{{"red", "green", "blue"}},
      "background"_a = 0x333333, "device"_a = std::nullopt,
      "The histogram drawn as `gpuhist draw` draws it: an (H, W, 4) uint8 RGBA array of "
      "size=(W, H); drawn on the CPU unless a device is named (the same bytes either way). "
      "channels: a name or a list of names of red, green, blue, luminance, or letters of "
      "'rgbl' as the command line's --channels ('rgb', 'l'); a grey histogram shows its luminance "
      "whichever are named, a PlaneHistogram its plane (which channels may name: 'y', 'cb' "
      "or 'cr').");
  m.def("devices", &devices,
        "The Vulkan devices: index, name, type, hardware, vulkan, driver, device_local_memory.");

  register_adjustments(m, context);
}
