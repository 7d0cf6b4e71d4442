#include "video_iter.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "functions.hpp"
#include "gpuhist/video_file.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

// The frames of one video, decoded and counted one at a time as Python asks.
class VideoHistograms {
 public:
  VideoHistograms(const std::string& path, std::uint32_t bins, const std::string& luma,
                  const std::optional<std::string>& strategy,
                  const std::optional<std::string>& device, std::uint64_t max_pixels)
      : context_(default_context(device)), bins_(bins), luma_(luma), strategy_(strategy) {
    py::gil_scoped_release release;
    reader_ = std::make_unique<VideoReader>(std::filesystem::path(path), max_pixels);
  }

  py::tuple next() {
    VideoFrame frame;
    bool more = false;
    {
      py::gil_scoped_release release;
      more = reader_->next(frame);
    }
    if (!more) throw py::stop_iteration();
    Histogram h = context_->count(frame.image.view(), bins_, luma_, strategy_);
    return py::make_tuple(frame.index, frame.time, std::move(h));
  }

  [[nodiscard]] const VideoReader& reader() const { return *reader_; }

 private:
  std::shared_ptr<SharedContext> context_;
  std::uint32_t bins_;
  std::string luma_;
  std::optional<std::string> strategy_;
  std::unique_ptr<VideoReader> reader_;
};

}  // namespace

void register_video(py::module_& m) {
  py::class_<VideoHistograms>(m, "VideoHistograms", R"doc(
The frames of a video, each counted as it is decoded: iterating gives
(index, time, Histogram) for every frame in decoding order, time in seconds.
width, height and frame_rate describe the stream; errors and first_error the
damage the demuxer and decoder met so far (a file that ends early, a damaged
slice): a damaged stream still gives every frame it can, so check errors at the end.
)doc")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &VideoHistograms::next)
      .def_property_readonly("width", [](const VideoHistograms& v) { return v.reader().width(); })
      .def_property_readonly("height", [](const VideoHistograms& v) { return v.reader().height(); })
      .def_property_readonly("frame_rate",
                             [](const VideoHistograms& v) { return v.reader().frame_rate(); })
      .def_property_readonly("codec", [](const VideoHistograms& v) { return v.reader().codec(); })
      .def_property_readonly("errors", [](const VideoHistograms& v) { return v.reader().errors(); })
      .def_property_readonly("first_error",
                             [](const VideoHistograms& v) { return v.reader().first_error(); });
  m.def(
      "video",
      [](const std::string& path, std::uint32_t bins, const std::string& luma,
         const std::optional<std::string>& strategy, const std::optional<std::string>& device,
         std::uint64_t max_pixels) {
        return VideoHistograms(path, bins, luma, strategy, device, max_pixels);
      },
      py::arg("path"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = "709",
      py::arg("strategy") = std::nullopt, py::arg("device") = std::nullopt,
      py::arg("max_pixels") = kDefaultMaxPixels,
      "The histograms of a video's frames, as an iterator of (index, time, Histogram): "
      "FFmpeg decodes every frame to RGB, as `gpuhist video` does. Raises FileNotFoundError or "
      "OSError naming the file for a file that cannot be opened.");
}

}  // namespace gpuhist::python
