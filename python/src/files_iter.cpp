#include "files_iter.hpp"

#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "errors.hpp"
#include "functions.hpp"
#include "gpuhist/decode_files.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "histogram_type.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

// More decoding threads than any machine has cores is a mistake, not a wish.
constexpr std::int64_t kMaxThreads = 4096;

// One file's outcome: its histogram and what was read, or why it could not be.
struct FileHistogram {
  py::object path;       // str: the path given, as os.fsdecode gives it
  py::object histogram;  // Histogram, or None
  py::object error;      // the exception (not raised), or None
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t channels = 0;
  std::string dtype;
  std::string format;  // the decoder's name: "jpeg", "png", …
  bool alpha = false;
  bool more_pages = false;
  py::object warning = py::none();  // str: the decoder's warning of possible damage, or None
  std::uint8_t orientation = 1;     // the file's EXIF orientation of the pixels counted
  py::tuple notes;                  // str each: reading_notes() of the image
};

// The files decoded ahead on `threads` threads and counted one at a time, in
// list order, as Python asks.
class FileHistograms {
 public:
  FileHistograms(std::shared_ptr<SharedContext> context, std::vector<std::filesystem::path> paths,
                 Whole bins, const Name& luma, const std::optional<std::string>& strategy,
                 Whole max_pixels, std::optional<Whole> threads, bool all_formats)
      : context_(std::move(context)),
        options_(SharedContext::options(bins, luma)),
        run_(context_->run(strategy)),
        paths_(std::move(paths)) {
    const auto decoders =
        threads ? static_cast<unsigned>(within(*threads, "threads", 1, kMaxThreads)) : 0U;
    LoadOptions load;
    load.max_pixels = max_pixels_of(max_pixels);
    load.formats = all_formats ? FormatSet::All : FormatSet::Common;
    const py::gil_scoped_release release;
    files_ = std::make_unique<DecodeFiles>(
        paths_, [load](const std::filesystem::path& path) { return load_image(path, load); },
        decoders);
  }
  FileHistograms(const FileHistograms&) = delete;
  FileHistograms& operator=(const FileHistograms&) = delete;
  ~FileHistograms() {
    // A decoding thread finishes the file it is on before it stops: wait without the GIL.
    const py::gil_scoped_release release;
    files_.reset();
  }

  FileHistogram next() {
    std::size_t index = 0;
    std::optional<Image> image;
    std::exception_ptr error;
    Histogram counts;
    {
      const py::gil_scoped_release release;
      const std::lock_guard lock(mutex_);
      if (taken_ == paths_.size()) {
        index = paths_.size();
      } else {
        index = taken_++;
        try {
          image = files_->next();
          if (image) counts = context_->count_unlocked(image->view(), options_, run_);
        } catch (const Error& e) {
          if (e.kind() == ErrorKind::Device) {
            taken_ = paths_.size();  // the device, not the file: raised, and the end
            throw;
          }
          error = std::current_exception();
        } catch (...) {
          error = std::current_exception();
        }
      }
    }
    if (index == paths_.size()) throw py::stop_iteration();
    FileHistogram out;
    out.path = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeFSDefault(paths_[index].c_str()));
    if (!out.path) throw py::error_already_set();
    out.histogram = py::none();
    out.error = py::none();
    if (error || !image) {
      out.error = exception_object(
          error ? error : std::make_exception_ptr(Error(ErrorKind::Input, "gpuhist: no image")),
          &paths_[index]);
      return out;
    }
    out.histogram = py::cast(std::move(counts));
    out.width = image->width;
    out.height = image->height;
    out.channels = channel_count(image->format.layout);
    out.dtype = dtype_name(image->format.sample);
    out.format = image->codec;
    out.alpha = image->alpha;
    out.more_pages = image->more_pages;
    out.orientation = image->orientation;
    if (!image->warning.empty()) out.warning = py::str(image->warning);
    out.notes = py::cast(reading_notes(*image));
    return out;
  }

  [[nodiscard]] std::size_t size() const noexcept { return paths_.size(); }
  [[nodiscard]] unsigned threads() const noexcept { return files_->threads(); }

 private:
  std::shared_ptr<SharedContext> context_;
  HistogramOptions options_;  // checked before anything is decoded
  RunOptions run_;
  std::vector<std::filesystem::path> paths_;
  std::mutex mutex_;  // one caller takes and counts at a time
  std::size_t taken_ = 0;
  std::unique_ptr<DecodeFiles> files_;
};

// What pickles a FileHistogram: its fields in order.
py::tuple file_state(const FileHistogram& f) {
  return py::make_tuple(f.path, f.histogram, f.error, f.width, f.height, f.channels, f.dtype,
                        f.format, f.alpha, f.more_pages, f.warning, f.orientation, f.notes);
}

FileHistogram file_from_state(const py::object& pickled) {
  const auto refuse = [] { return py::value_error("gpuhist: not a pickled FileHistogram"); };
  if (!py::isinstance<py::tuple>(pickled)) throw refuse();
  const auto state = pickled.cast<py::tuple>();
  // (Ten fields before `warning` was one, eleven before `orientation`, twelve before `notes`.)
  if (state.size() < 10 || state.size() > 13) throw refuse();
  FileHistogram f;
  f.path = state[0];
  f.histogram = state[1];
  f.error = state[2];
  // A path, and either a histogram or the error that kept it from being counted.
  if (!py::isinstance<py::str>(f.path) || f.histogram.is_none() == f.error.is_none() ||
      !(f.histogram.is_none() || py::isinstance<Histogram>(f.histogram)) ||
      !(f.error.is_none() || PyExceptionInstance_Check(f.error.ptr()) != 0)) {
    throw refuse();
  }
  try {
    f.width = state[3].cast<std::uint32_t>();
    f.height = state[4].cast<std::uint32_t>();
    f.channels = state[5].cast<std::uint32_t>();
    f.dtype = state[6].cast<std::string>();
    f.format = state[7].cast<std::string>();
    f.alpha = state[8].cast<bool>();
    f.more_pages = state[9].cast<bool>();
    if (state.size() >= 11) f.warning = state[10];
    if (state.size() >= 12) f.orientation = state[11].cast<std::uint8_t>();
    if (state.size() == 13) {
      if (!py::isinstance<py::tuple>(state[12])) throw refuse();
      f.notes = state[12].cast<py::tuple>();
      for (const py::handle note : f.notes) {
        if (!py::isinstance<py::str>(note)) throw refuse();
      }
    }
    if (f.orientation < 1 || f.orientation > 8) throw refuse();
    if (!f.warning.is_none() && !py::isinstance<py::str>(f.warning)) throw refuse();
  } catch (const py::cast_error&) {
    throw refuse();
  }
  return f;
}

// Any iterable of str or os.PathLike (a list, a generator, Path.glob()), but
// not one path: a str is an iterable of characters.
std::vector<std::filesystem::path> path_list(const py::handle& paths) {
  if (py::isinstance<py::str>(paths) || py::isinstance<py::bytes>(paths) ||
      py::hasattr(paths, "__fspath__")) {
    throw py::type_error("gpuhist: paths is a list of paths, not one path");
  }
  std::vector<std::filesystem::path> out;
  for (const py::handle item : py::iter(paths)) out.push_back(item.cast<FilePath>().path);
  return out;
}

const char* const kFilesDoc = R"doc(
The histograms of many image files: an iterator of FileHistogram, one per path
in the order given. The files are decoded ahead on `threads` threads (default:
one per core this process may run on) while earlier ones are counted; at most
twice as many images as threads wait decoded, so memory does not grow with the
list. A file that cannot be read (missing, corrupt, over max_pixels, not an
image) is that FileHistogram's `error` (an exception, not raised) and the
iteration goes on; a failing device raises gpuhist.GpuError, which ends it.

paths: any iterable of str or os.PathLike (a list, a generator, Path.glob()). bins, luma, strategy: as
histogram(). max_pixels and all_formats: as read().
)doc";

}  // namespace
}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::python::FileHistogram)
GPUHIST_PYTHON_INITIALISED(gpuhist::python::FileHistograms)

namespace gpuhist::python {

void register_files(py::module_& m,
                    py::class_<SharedContext, std::shared_ptr<SharedContext>>& context) {
  py::class_<FileHistogram>(m, "FileHistogram",
                            "One file of histogram_files(): its histogram and what was read, or "
                            "the error that kept it from being counted.")
      .def_readonly("path", &FileHistogram::path,
                    "The file, as a str (os.fsdecode of the path given).")
      .def_readonly("histogram", &FileHistogram::histogram, "Its Histogram, or None.")
      .def_readonly("error", &FileHistogram::error,
                    "None, or the exception reading it raised (FileNotFoundError, OSError, "
                    "MemoryError), not raised.")
      .def_readonly("width", &FileHistogram::width,
                    "Its width in pixels (0 when it could not be read).")
      .def_readonly("height", &FileHistogram::height,
                    "Its height in pixels (0 when it could not be read).")
      .def_readonly("channels", &FileHistogram::channels,
                    "Channels counted: 1 (grey) or 3 (RGB; alpha is never counted).")
      .def_readonly("dtype", &FileHistogram::dtype, "The samples as read: uint8, uint16, float32.")
      .def_readonly("format", &FileHistogram::format, "The decoder: jpeg, png, tiff, …")
      .def_readonly("alpha", &FileHistogram::alpha, "The file has alpha, not counted.")
      .def_readonly("more_pages", &FileHistogram::more_pages,
                    "The file holds more pages than the first, the one counted.")
      .def_readonly("orientation", &FileHistogram::orientation,
                    "The file's EXIF orientation, 1 to 8 (1: as stored); the pixels are counted "
                    "as stored, and read(path, upright=True) turns them as it says.")
      .def_readonly("warning", &FileHistogram::warning,
                    "None, or the decoder's warning that the file may be damaged (a JPEG's "
                    "coded data left over at its end), its pixels counted as decoded.")
      .def_readonly("notes", &FileHistogram::notes,
                    "What counting left out of the file or changed, a sentence each, as the "
                    "command line warns: pages after the first, channels neither counted nor "
                    "alpha, integer samples read as scaled floats. Empty when nothing.")
      // Rebuilt by gpuhist._file_histogram_from_state, for every pickle protocol.
      .def("__reduce__",
           [](const FileHistogram& f) {
             return py::make_tuple(
                 py::module_::import("gpuhist").attr("_file_histogram_from_state"),
                 py::make_tuple(file_state(f)));
           })
      .def("__repr__", [](const FileHistogram& f) {
        const std::string path = py::repr(f.path);
        if (!f.error.is_none())
          return "FileHistogram(" + path + ", error=" + std::string(py::repr(f.error)) + ")";
        return "FileHistogram(" + path + ", " + std::to_string(f.width) + "x" +
               std::to_string(f.height) + ", " + std::to_string(f.channels) + " x " + f.dtype +
               ", " + f.format + ")";
      });
  m.def("_file_histogram_from_state", &file_from_state, "Rebuilds a pickled FileHistogram.");
  py::class_<FileHistograms>(m, "FileHistograms",
                             "The iterator histogram_files() returns; len() is the number of "
                             "files, threads the decoding threads.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &FileHistograms::next)
      .def("__reduce__",
           [](const py::object&) -> py::object {
             throw py::type_error(
                 "gpuhist: FileHistograms decodes files as it goes and cannot be pickled: "
                 "pickle the FileHistogram items it gives");
           })
      .def("__len__", &FileHistograms::size)
      .def_property_readonly("threads", &FileHistograms::threads,
                             "The threads decoding the files ahead of the one counted.");
  m.def(
      "histogram_files",
      [](const py::object& paths, Whole bins, const Name& luma,
         const std::optional<std::string>& strategy, const std::optional<Name>& device,
         Whole max_pixels, std::optional<Whole> threads, bool all_formats) {
        return std::make_unique<FileHistograms>(default_context(device), path_list(paths), bins,
                                                luma, strategy, max_pixels, threads, all_formats);
      },
      py::arg("paths"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = "709",
      py::arg("strategy") = std::nullopt, py::arg("device") = std::nullopt,
      py::arg("max_pixels") = kDefaultMaxPixels, py::arg("threads") = std::nullopt,
      py::arg("all_formats") = false, kFilesDoc);
  context.def(
      "histogram_files",
      [](const py::object& self, const py::object& paths, Whole bins, const Name& luma,
         const std::optional<std::string>& strategy, Whole max_pixels, std::optional<Whole> threads,
         bool all_formats) {
        return std::make_unique<FileHistograms>(shared_of(self), path_list(paths), bins, luma,
                                                strategy, max_pixels, threads, all_formats);
      },
      py::arg("paths"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = "709",
      py::arg("strategy") = std::nullopt, py::arg("max_pixels") = kDefaultMaxPixels,
      py::arg("threads") = std::nullopt, py::arg("all_formats") = false, kFilesDoc);
}

}  // namespace gpuhist::python
