#include "file_functions.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "errors.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/image_planes.hpp"
#include "plane_histogram.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace gpuhist::python {
namespace {

Image read_file(const FilePath& path, Whole max_pixels, bool all_formats, bool alpha = false) {
  LoadOptions options;
  options.max_pixels = max_pixels_of(max_pixels);
  options.formats = all_formats ? FormatSet::All : FormatSet::Common;
  options.alpha = alpha;
  Image image = reading(path.path, [&] {
    const py::gil_scoped_release release;
    return load_image(path.path, options);
  });
  // A decoder's warning of possible damage is a UserWarning (an exception
  // where the warnings filter makes it one).
  // So is what counting leaves out of the file or changes (pages, channels, samples).
  std::vector<std::string> warnings = reading_notes(image);
  if (!image.warning.empty()) warnings.insert(warnings.begin(), damage_warning(image.warning));
  // Asked for alpha, which only colour images come with.
  if (alpha && image.alpha) warnings.emplace_back("a grey image's alpha is not read (grey alone)");
  for (const std::string& warning : warnings) {
    const std::string text = "gpuhist: " + path.path.string() + ": " + warning;
    if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) != 0) throw py::error_already_set();
  }
  return image;
}

// A Histogram, or with space="ycbcr" the dict of a JPEG's PlaneHistograms.
py::object histogram_file(const SharedContext& shared, const FilePath& path, Whole bins,
                          const std::optional<Name>& luma,
                          const std::optional<std::string>& strategy, Whole max_pixels,
                          const std::string& space, bool all_formats) {
  const FrameSpace counted = frame_space(space);
  const HistogramOptions options = SharedContext::options(bins, luma_in(counted, luma));
  const RunOptions run = shared.run(strategy);
  if (counted == FrameSpace::YCbCr) {
    const std::uint64_t most = max_pixels_of(max_pixels);
    const VideoFrame frame = reading(path.path, [&] {
      const py::gil_scoped_release release;
      return read_jpeg_planes(path.path, most);
    });
    std::vector<Histogram> counts;
    {
      const py::gil_scoped_release release;
      for (const ImageView& plane : frame.planes) {
        counts.push_back(shared.count_unlocked(plane, options, run));
      }
    }
    return plane_histograms(std::move(counts));
  }
  const Image image = read_file(path, max_pixels, all_formats);
  Histogram counts;
  {
    const py::gil_scoped_release release;
    counts = shared.count_unlocked(image.view(), options, run);
  }
  return py::cast(std::move(counts));
}

const char* const kSpaceDoc =
    " With space=\"ycbcr\", a JPEG's Y', Cb and Cr planes as decoded, with no colour "
    "conversion, as `gpuhist compute --space ycbcr` counts them: {\"y\", \"cb\", \"cr\"} of "
    "PlaneHistograms (\"y\" alone for a grey JPEG), the levels `ffmpeg -i F -f rawvideo` "
    "writes; another format is an OSError. luma (default \"709\") weighs RGB's luminance: "
    "with space=\"ycbcr\" it is a ValueError.";

}  // namespace

FrameSpace frame_space(const std::string& space) {
  if (space == "rgb") return FrameSpace::Rgb;
  if (space == "ycbcr") return FrameSpace::YCbCr;
  throw py::value_error("gpuhist: space must be \"rgb\" or \"ycbcr\", not \"" + space + "\"");
}

Name luma_in(FrameSpace space, const std::optional<Name>& luma) {
  if (space == FrameSpace::YCbCr && luma) {
    throw py::value_error(
        "gpuhist: luma goes with space=\"rgb\": Y'CbCr planes are counted as decoded, with no "
        "luminance of RGB to weigh");
  }
  return luma.value_or(Name{"709"});
}

void register_file_functions(py::module_& m,
                             py::class_<SharedContext, std::shared_ptr<SharedContext>>& context) {
  m.def("_damage_warning", &damage_warning,
        "A decoder's warning as the command line words it, for gpuhist.dataset.");
  m.def(
      "_has_image_extension",
      [](const FilePath& path, bool all_formats) {
        return has_image_extension(path.path, all_formats ? FormatSet::All : FormatSet::Common);
      },
      "path"_a, "all_formats"_a,
      "Whether a folder's search takes the file by its extension, as `gpuhist compute FOLDER "
      "[--formats all]` does, for gpuhist.dataset.");
  const std::string context_doc =
      std::string("The histograms of an image file (read as gpuhist.read reads it).") + kSpaceDoc;
  const std::string module_doc =
      std::string(
          "The histograms of an image file: its stored values, counted as "
          "gpuhist.histogram counts an array.") +
      kSpaceDoc +
      " all_formats=True reads every format the image library reads, as read(). Raises "
      "FileNotFoundError or OSError naming the file and the cause.";
  context.def("histogram_file", &histogram_file, "path"_a, "bins"_a = 256, py::kw_only(),
              "luma"_a = std::nullopt, "strategy"_a = std::nullopt,
              "max_pixels"_a = kDefaultMaxPixels, "space"_a = "rgb", "all_formats"_a = false,
              context_doc.c_str());
  m.def(
      "histogram_file",
      [](const FilePath& path, Whole bins, const std::optional<Name>& luma,
         const std::optional<std::string>& strategy, const std::optional<Name>& device,
         Whole max_pixels, const std::string& space, bool all_formats) {
        return histogram_file(*default_context(device), path, bins, luma, strategy, max_pixels,
                              space, all_formats);
      },
      "path"_a, "bins"_a = 256, py::kw_only(), "luma"_a = std::nullopt, "strategy"_a = std::nullopt,
      "device"_a = std::nullopt, "max_pixels"_a = kDefaultMaxPixels, "space"_a = "rgb",
      "all_formats"_a = false, module_doc.c_str());
  m.def(
      "read",
      [](const FilePath& path, Whole max_pixels, bool all_formats, bool upright_, bool alpha) {
        Image image = read_file(path, max_pixels, all_formats, alpha);
        if (upright_ && image.orientation != 1) {
          const py::gil_scoped_release release;
          image = upright(std::move(image));
        }
        return to_array(std::move(image));
      },
      "path"_a, py::kw_only(), "max_pixels"_a = kDefaultMaxPixels, "all_formats"_a = false,
      "upright"_a = false, "alpha"_a = false,
      R"doc(
An image file's pixels as stored: a numpy array (H, W) or (H, W, 3) of uint8,
uint16 or float32; alpha=True gives a colour image with alpha as (H, W, 4), in
RGBA order, colour and alpha as stored (a PNG's straight, neither premultiplied
nor divided), as cv2.imread's IMREAD_UNCHANGED gives them (otherwise alpha is
dropped; a grey image's always is, with a UserWarning where it was asked for).
The common formats by default (JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP, PNM,
HDR, Targa, DPX); all_formats=True reads
every format OpenImageIO knows, in this process. upright=True turns (and
mirrors) them as the file's EXIF orientation says a viewer shows them, as
OpenCV's imread and PIL's ImageOps.exif_transpose do (counts do not change;
histogram_files gives each file's orientation). Images of more than
max_pixels pixels are refused before anything is allocated. Raises
FileNotFoundError or OSError naming the file and the cause.

"As stored" but for what the README's "What is counted" lists: CMYK JPEGs
and TIFFs come back as RGB; samples of fewer bits than their type (a 12-bit
TIFF, a PGM of maximum 1023, a 1-bit TIFF) scaled to its full range; signed
and 32-bit integer samples as scaled floats, doubles as float32. A file of
several pages or frames gives its first, with a UserWarning; what else is
left out or changed is a UserWarning too.
)doc");
}

}  // namespace gpuhist::python
