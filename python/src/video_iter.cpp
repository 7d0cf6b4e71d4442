#include "video_iter.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "functions.hpp"
#include "gpuhist/video_file.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

// The frames of one video, decoded and counted one at a time as Python asks.
class VideoHistograms {
 public:
  VideoHistograms(std::shared_ptr<SharedContext> context, const std::string& path,
                  std::uint32_t bins, const std::string& luma,
                  const std::optional<std::string>& strategy, std::uint64_t max_pixels)
      : context_(std::move(context)),
        options_(context_->options(bins, luma)),
        run_(context_->run(strategy)) {
    const py::gil_scoped_release release;
    reader_ = std::make_unique<VideoReader>(std::filesystem::path(path), max_pixels);
  }

  py::tuple next() {
    std::int64_t index = 0;
    double time = 0.0;
    Histogram h;
    bool more = false;
    {
      // One thread decodes and counts at a time (the frame is reused); the GIL is
      // released first, then the reader taken.
      const py::gil_scoped_release release;
      const std::lock_guard lock(mutex_);
      more = reader_->next(frame_);
      if (more) {
        index = frame_.index;
        time = frame_.time;
        h = context_->count_unlocked(frame_.image.view(), options_, run_);
      }
    }
    if (!more) throw py::stop_iteration();
    return py::make_tuple(index, time, std::move(h));
  }

  // Reads the reader under its lock (another thread may be decoding).
  template <class F>
  auto with_reader(const F& f) const {
    const py::gil_scoped_release release;
    const std::lock_guard lock(mutex_);
    return f(*reader_);
  }

 private:
  std::shared_ptr<SharedContext> context_;
  HistogramOptions options_;  // checked before anything is decoded
  RunOptions run_;
  mutable std::mutex mutex_;  // guards the reader and the frame
  std::unique_ptr<VideoReader> reader_;
  VideoFrame frame_;  // reused: its image keeps its buffer between frames
};

}  // namespace

void register_video(py::module_& m,
                    py::class_<SharedContext, std::shared_ptr<SharedContext>>& context) {
  py::class_<VideoHistograms>(m, "VideoHistograms", R"doc(
The frames of a video, each counted as it is decoded (one thread at a time): iterating gives
(index, time, Histogram) for every frame in decoding order, time in seconds.
width, height and frame_rate describe the stream; errors and first_error the
damage the demuxer and decoder met so far (a file that ends early, a damaged
slice): a damaged stream still gives every frame it can, so check errors at the end.
)doc")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &VideoHistograms::next)
      .def_property_readonly("width",
                             [](const VideoHistograms& v) {
                               return v.with_reader([](const VideoReader& r) { return r.width(); });
                             })
      .def_property_readonly(
          "height",
          [](const VideoHistograms& v) {
            return v.with_reader([](const VideoReader& r) { return r.height(); });
          })
      .def_property_readonly(
          "frame_rate",
          [](const VideoHistograms& v) {
            return v.with_reader([](const VideoReader& r) { return r.frame_rate(); });
          })
      .def_property_readonly("codec",
                             [](const VideoHistograms& v) {
                               return v.with_reader([](const VideoReader& r) { return r.codec(); });
                             })
      .def_property_readonly(
          "errors",
          [](const VideoHistograms& v) {
            return v.with_reader([](const VideoReader& r) { return r.errors(); });
          })
      .def_property_readonly("first_error", [](const VideoHistograms& v) {
        return v.with_reader([](const VideoReader& r) { return r.first_error(); });
      });
  const char* const doc =
      "The histograms of a video's frames, as an iterator of (index, time, Histogram): "
      "FFmpeg decodes every frame to RGB, as `gpuhist video` does. Raises FileNotFoundError or "
      "OSError naming the file for a file that cannot be opened.";
  m.def(
      "video",
      [](const std::string& path, std::uint32_t bins, const std::string& luma,
         const std::optional<std::string>& strategy, const std::optional<std::string>& device,
         std::uint64_t max_pixels) {
        return std::make_unique<VideoHistograms>(default_context(device), path, bins, luma,
                                                 strategy, max_pixels);
      },
      py::arg("path"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = "709",
      py::arg("strategy") = std::nullopt, py::arg("device") = std::nullopt,
      py::arg("max_pixels") = kDefaultMaxPixels, doc);
  context.def(
      "video",
      [](const std::shared_ptr<SharedContext>& self, const std::string& path, std::uint32_t bins,
         const std::string& luma, const std::optional<std::string>& strategy,
         std::uint64_t max_pixels) {
        return std::make_unique<VideoHistograms>(self, path, bins, luma, strategy, max_pixels);
      },
      py::arg("path"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = "709",
      py::arg("strategy") = std::nullopt, py::arg("max_pixels") = kDefaultMaxPixels, doc);
}

}  // namespace gpuhist::python
