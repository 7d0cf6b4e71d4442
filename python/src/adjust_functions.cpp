#include "adjust_functions.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "arrays.hpp"
#include "functions.hpp"
#include "gpuhist/adjust.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace gpuhist::python {
namespace {

using Tiles = WholePair;
using Device = std::optional<Name>;

ToneChannels tone_channels(const std::string& name) {
  if (name == "luminance") return ToneChannels::Luminance;
  if (name == "each") return ToneChannels::Each;
  throw py::value_error("gpuhist: channels is 'luminance' or 'each', not '" + name + "'");
}

Adjustment tone(AdjustKind kind, const std::string& channels, const Name& luma) {
  Adjustment a;
  a.kind = kind;
  a.channels = tone_channels(channels);
  a.luma = luma_weights(luma);
  return a;
}

py::array equalize(const SharedContext& c, const ArrayLike& image, const std::string& channels,
                   const Name& luma) {
  return c.adjust(image, tone(AdjustKind::Equalize, channels, luma)).image;
}

py::array clahe(const SharedContext& c, const ArrayLike& image, Tiles tiles, Real clip_limit,
                const std::string& channels, const Name& luma) {
  Adjustment a = tone(AdjustKind::Clahe, channels, luma);
  a.tiles_x = static_cast<std::uint32_t>(within(tiles.first, "tiles", 1, 256));
  a.tiles_y = static_cast<std::uint32_t>(within(tiles.second, "tiles", 1, 256));
  if (!(clip_limit >= 0) || !std::isfinite(clip_limit)) {
    throw py::value_error("gpuhist: clip_limit is a number from 0 up, not " +
                          std::string(py::str(py::float_(clip_limit))));
  }
  a.clip_limit = clip_limit;
  return c.adjust(image, a).image;
}

py::array autolevel(const SharedContext& c, const ArrayLike& image, Real low, Real high,
                    const std::string& channels, const Name& luma) {
  Adjustment a = tone(AdjustKind::Autolevel, channels, luma);
  for (const auto& [name, value] : {std::pair{"low", low}, std::pair{"high", high}}) {
    if (!(value >= 0 && value <= 50)) {
      throw py::value_error(std::string("gpuhist: ") + name +
                            " is a percentage from 0 to 50, not " +
                            std::string(py::str(py::float_(value))));
    }
  }
  a.low = low;
  a.high = high;
  return c.adjust(image, a).image;
}

py::object threshold(const SharedContext& c, const ArrayLike& image, const py::object& method,
                     const Name& luma, bool return_level) {
  Adjustment a;
  a.kind = AdjustKind::Threshold;
  a.luma = luma_weights(luma);
  if (!py::isinstance<py::str>(method)) {
    // A level: any whole number (a numpy integer too), not a bool or a float.
    if (py::isinstance<py::bool_>(method) || PyIndex_Check(method.ptr()) == 0) {
      throw py::type_error("gpuhist: method is 'otsu', 'triangle' or a whole-number level, not " +
                           std::string(py::str(py::type::of(method).attr("__name__"))));
    }
    const auto level = py::reinterpret_steal<py::int_>(PyNumber_Index(method.ptr()));
    if (!level) throw py::error_already_set();
    if (level < py::int_(-1) || level > py::int_(255)) {
      // Past an 8-bit image's levels: the image's own largest sample bounds it.
      const ArrayPixels pixels(image, ArrayPixels::Dtypes::Integers);
      const int top = pixels.view().format.sample == SampleType::U8 ? 255 : 65535;
      if (level < py::int_(-1) || level > py::int_(top)) {
        throw py::value_error("gpuhist: a threshold of " + py::repr(level).cast<std::string>() +
                              " is outside -1 to the image's largest sample, " +
                              std::to_string(top));
      }
    }
    a.method = ThresholdMethod::Fixed;
    a.threshold = level.cast<std::int32_t>();
  } else {
    const std::string name = method.cast<std::string>();
    if (name == "otsu")
      a.method = ThresholdMethod::Otsu;
    else if (name == "triangle")
      a.method = ThresholdMethod::Triangle;
    else
      throw py::value_error("gpuhist: method is 'otsu', 'triangle' or a level, not '" + name + "'");
  }
  SharedContext::Adjusted out = c.adjust(image, a);
  if (!return_level) return std::move(out.image);
  return py::make_tuple(std::move(out.image), out.threshold.value_or(a.threshold));
}

py::array match(const SharedContext& c, const ArrayLike& image, const ArrayLike& reference,
                const std::string& channels, const Name& luma) {
  ArrayPixels ref(reference, ArrayPixels::Dtypes::Integers);
  ArrayPixels img(image, ArrayPixels::Dtypes::Integers);
  if (ref.view().format.sample != img.view().format.sample) {
    throw py::type_error("gpuhist: the reference must have the image's dtype");
  }
  if (ref.empty()) throw py::value_error("gpuhist: the reference is empty: it has no pixels");
  Adjustment a = tone(AdjustKind::Match, channels, luma);
  // The reference's luminance by the image's weights.
  Histogram counted;
  {
    py::gil_scoped_release release;
    ref.pack();
    counted = c.context()->compute(ref.view(), tone_options(ref.view().format, a.luma));
  }
  a.reference = &counted;
  return c.adjust(image, a).image;
}

const char* const kEqualizeDoc =
    "The image equalised, a new array of its dtype: by the luminance histogram applied to "
    "every channel, or each channel by its own (channels='each'). uint8 or uint16.";
const char* const kClaheDoc =
    "Contrast-limited adaptive histogram equalisation over tiles=(X, Y) tiles.";
const char* const kAutolevelDoc =
    "The contrast stretched, clipping low and high percent of the pixels to black and white.";
const char* const kThresholdDoc =
    "The luminance binarised (a grey array of the input's dtype: samples above the level "
    "become the largest value, the rest 0) at Otsu's threshold, the triangle threshold, or a "
    "given level from -1 up. With return_level=True, (image, level): the level used, as "
    "cv2.threshold returns it.";
const char* const kMatchDoc =
    "The image with its histogram matched to the reference image's (same dtype).";

}  // namespace

void register_adjustments(py::module_& m,
                          py::class_<SharedContext, std::shared_ptr<SharedContext>>& context) {
  // Each twice: a method of a Context, and a function on the device named.
  context.def("equalize", &equalize, "image"_a, py::kw_only(), "channels"_a = "luminance",
              "luma"_a = "709", kEqualizeDoc);
  m.def(
      "equalize",
      [](const ArrayLike& image, const std::string& channels, const Name& luma,
         const Device& device) {
        return equalize(*default_context(device), image, channels, luma);
      },
      "image"_a, py::kw_only(), "channels"_a = "luminance", "luma"_a = "709",
      "device"_a = std::nullopt, kEqualizeDoc);

  context.def("clahe", &clahe, "image"_a, py::kw_only(), "tiles"_a = Tiles{Whole{8}, Whole{8}},
              "clip_limit"_a = Real{2.0}, "channels"_a = "luminance", "luma"_a = "709", kClaheDoc);
  m.def(
      "clahe",
      [](const ArrayLike& image, Tiles tiles, Real clip_limit, const std::string& channels,
         const Name& luma, const Device& device) {
        return clahe(*default_context(device), image, tiles, clip_limit, channels, luma);
      },
      "image"_a, py::kw_only(), "tiles"_a = Tiles{Whole{8}, Whole{8}}, "clip_limit"_a = Real{2.0},
      "channels"_a = "luminance", "luma"_a = "709", "device"_a = std::nullopt, kClaheDoc);

  context.def("autolevel", &autolevel, "image"_a, py::kw_only(), "low"_a = Real{0.5},
              "high"_a = Real{0.5}, "channels"_a = "luminance", "luma"_a = "709", kAutolevelDoc);
  m.def(
      "autolevel",
      [](const ArrayLike& image, Real low, Real high, const std::string& channels, const Name& luma,
         const Device& device) {
        return autolevel(*default_context(device), image, low, high, channels, luma);
      },
      "image"_a, py::kw_only(), "low"_a = Real{0.5}, "high"_a = Real{0.5},
      "channels"_a = "luminance", "luma"_a = "709", "device"_a = std::nullopt, kAutolevelDoc);

  context.def("threshold", &threshold, "image"_a, py::kw_only(), "method"_a = "otsu",
              "luma"_a = "709", "return_level"_a = false, kThresholdDoc);
  m.def(
      "threshold",
      [](const ArrayLike& image, const py::object& method, const Name& luma, bool return_level,
         const Device& device) {
        return threshold(*default_context(device), image, method, luma, return_level);
      },
      "image"_a, py::kw_only(), "method"_a = "otsu", "luma"_a = "709", "return_level"_a = false,
      "device"_a = std::nullopt, kThresholdDoc);

  context.def("match", &match, "image"_a, "reference"_a, py::kw_only(),
              "channels"_a = "luminance", "luma"_a = "709", kMatchDoc);
  m.def(
      "match",
      [](const ArrayLike& image, const ArrayLike& reference, const std::string& channels,
         const Name& luma, const Device& device) {
        return match(*default_context(device), image, reference, channels, luma);
      },
      "image"_a, "reference"_a, py::kw_only(), "channels"_a = "luminance", "luma"_a = "709",
      "device"_a = std::nullopt, kMatchDoc);
}

}  // namespace gpuhist::python
