#include "video_iter.hpp"

#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "errors.hpp"
#include "file_functions.hpp"
#include "functions.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"
#include "histogram_type.hpp"
#include "plane_histogram.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

constexpr std::chrono::milliseconds kSignalPoll{50};

// The frames of one video: decoded and converted ahead on threads of their
// own (DecodeAhead) from the moment it is opened, counted one at a time as
// Python asks, so that decoding overlaps counting and the caller's own work.
class VideoHistograms {
 public:
  VideoHistograms(std::shared_ptr<SharedContext> context, const FilePath& path, Whole bins,
                  const std::optional<Name>& luma, const std::optional<std::string>& strategy,
                  Whole max_pixels, const std::string& space, std::optional<Whole> threads)
      : context_(std::move(context)),
        space_(frame_space(space)),
        options_(context_->options(bins, luma_in(space_, luma))),
        run_(context_->run(strategy)) {
    // Planes are counted on the calling thread alone, as `gpuhist video
    // --space ycbcr` counts them: the decoder's threads keep every core busy.
    if (space_ == FrameSpace::YCbCr) run_.threads = 1;
    const std::uint64_t limit = max_pixels_of(max_pixels);
    const unsigned decode_threads =
        threads ? static_cast<unsigned>(within(*threads, "threads", 1, kMostDecodeThreads)) : 0U;
    reading(path.path, [&] {
      const py::gil_scoped_release release;
      reader_ = std::make_unique<VideoReader>(path.path, limit, space_, decode_threads);
    });
    const py::gil_scoped_release release;
    // What describes the stream, read before the decoding thread starts.
    width_ = reader_->width();
    height_ = reader_->height();
    frame_rate_ = reader_->frame_rate();
    codec_ = reader_->codec();
    colour_ = reader_->colour();
    rotation_ = reader_->rotation();
    mirrored_ = reader_->mirrored();
    frames_ = std::make_unique<DecodeAhead>(*reader_, DecodeAhead::OnDamage{});
  }
  VideoHistograms(const VideoHistograms&) = delete;
  VideoHistograms& operator=(const VideoHistograms&) = delete;
  VideoHistograms(VideoHistograms&&) = delete;
  VideoHistograms& operator=(VideoHistograms&&) = delete;
  // Stops and joins the decoding threads with the GIL released: a thread may
  // be waiting on a slow read (a pipe that a Python thread feeds), or in a log
  // callback another library set that takes the GIL.
  ~VideoHistograms() {
    const py::gil_scoped_release release;
    frames_.reset();
  }

  py::tuple next() {
    std::optional<VideoFrame> frame;
    std::vector<Histogram> counts;
    {
      // One thread takes and counts a frame at a time, so that frames come
      // in order; the GIL is released first, then the lock taken.
      // (A signal handler run while this thread waits, calling next() again,
      // would wait on itself.)
      if (waiting_ == std::this_thread::get_id()) {
        throw std::runtime_error(
            "gpuhist: VideoHistograms.__next__ called again while it waits for a frame (from a "
            "signal handler?)");
      }
      // A source that stalls (a pipe, a network stream) is waited for in
      // steps, Python's signal handlers run between them: Ctrl-C is heard.
      const std::function<void()> poll = interrupt_poll();
      const py::gil_scoped_release release;
      const std::lock_guard lock(mutex_);
      const Waiting marked(waiting_);
      while (!frames_->wait_for(kSignalPoll)) {
        if (poll) poll();
      }
      frame = frames_->next();
      if (frame && space_ == FrameSpace::Rgb) {
        counts.push_back(context_->count_unlocked(frame->image.view(), options_, run_));
      } else if (frame) {
        for (const ImageView& plane : frame->planes) {
          counts.push_back(context_->count_unlocked(plane, options_, run_));
        }
      }
    }
    if (!frame) throw py::stop_iteration();
    if (space_ == FrameSpace::Rgb) return py::make_tuple(frame->index, frame->time, counts[0]);
    return py::make_tuple(frame->index, frame->time, plane_histograms(std::move(counts)));
  }

  [[nodiscard]] std::uint32_t width() const noexcept { return width_; }
  [[nodiscard]] std::uint32_t height() const noexcept { return height_; }
  [[nodiscard]] double frame_rate() const noexcept { return frame_rate_; }
  [[nodiscard]] const std::string& codec() const noexcept { return codec_; }
  [[nodiscard]] int rotation() const noexcept { return rotation_; }
  [[nodiscard]] bool mirrored() const noexcept { return mirrored_; }
  [[nodiscard]] py::dict colour() const {
    py::dict d;
    d["matrix"] = colour_.matrix;
    d["primaries"] = colour_.primaries;
    d["transfer"] = colour_.transfer;
    d["range"] = colour_.range;
    return d;
  }
  // The reader's damage so far, which it counts safely while its thread decodes.
  [[nodiscard]] std::int64_t errors() const noexcept { return reader_->errors(); }
  [[nodiscard]] std::string first_error() const { return reader_->first_error(); }

 private:
  std::shared_ptr<SharedContext> context_;
  FrameSpace space_;          // (before options_, whose luma it checks)
  HistogramOptions options_;  // checked before anything is decoded
  RunOptions run_;
  std::mutex mutex_;  // one caller of next() at a time
  // The thread in next(), while it holds mutex_.
  std::atomic<std::thread::id> waiting_{};
  struct Waiting {
    explicit Waiting(std::atomic<std::thread::id>& id) : id_(id) {
      id_ = std::this_thread::get_id();
    }
    Waiting(const Waiting&) = delete;
    Waiting& operator=(const Waiting&) = delete;
    ~Waiting() { id_ = std::thread::id{}; }
    std::atomic<std::thread::id>& id_;
  };
  std::uint32_t width_ = 0, height_ = 0;
  double frame_rate_ = 0.0;
  std::string codec_;
  VideoColour colour_;
  int rotation_ = 0;
  bool mirrored_ = false;
  std::unique_ptr<VideoReader> reader_;
  std::unique_ptr<DecodeAhead> frames_;  // stopped before the reader goes
};

}  // namespace
}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::python::VideoHistograms)

namespace gpuhist::python {

void register_video(py::module_& m,
                    py::class_<SharedContext, std::shared_ptr<SharedContext>>& context) {
  py::class_<VideoHistograms>(m, "VideoHistograms", R"doc(
The frames of a video, decoded a few frames ahead on threads of their own from the moment it
is opened, and each counted as it is taken (one thread at a time): iterating gives
(index, time, Histogram) for every frame in presentation order, time in seconds; with
space="ycbcr", (index, time, {"y": PlaneHistogram, "cb": ..., "cr": ...}), each
plane's levels as decoded (Y' alone for a grey stream).
width, height, frame_rate, codec, rotation, mirrored and colour describe the stream
(rotation: the clockwise turn, 0, 90, 180 or 270 degrees, that its display
matrix asks for to show it upright, then mirrored left to right where mirrored
is True; frames are counted as coded; colour: the
"matrix", "primaries", "transfer" and "range" it declares, in FFmpeg's names,
"unspecified" where it declares none; frames are converted to RGB with that
matrix and range, as the ffmpeg command line converts them); errors and first_error the
damage the demuxer and decoder met so far (a file that ends early, a damaged
slice), which may run a few frames ahead of the frames taken: a damaged stream
still gives every frame it can, so check errors at the end.
)doc")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &VideoHistograms::next)
      .def("__reduce__",
           [](const py::object&) -> py::object {
             throw py::type_error(
                 "gpuhist: VideoHistograms decodes a video as it goes and cannot be pickled: "
                 "pickle the Histograms it gives");
           })
      .def_property_readonly("width", &VideoHistograms::width,
                             "The frames' width in pixels, as coded.")
      .def_property_readonly("height", &VideoHistograms::height,
                             "The frames' height in pixels, as coded.")
      .def_property_readonly(
          "frame_rate", &VideoHistograms::frame_rate,
          "Frames a second on average, as the stream declares it (0.0 when unknown).")
      .def_property_readonly("codec", &VideoHistograms::codec,
                             "FFmpeg's name of the stream's codec: h264, hevc, vp9, …")
      .def_property_readonly("colour", &VideoHistograms::colour,
                             "The stream's colour description: a dict of matrix, primaries, "
                             "transfer and range (FFmpeg's names, or 'unspecified').")
      .def_property_readonly("rotation", &VideoHistograms::rotation,
                             "The clockwise turn (0, 90, 180 or 270 degrees) that shows the "
                             "frames upright, from the stream's display matrix: 270 where "
                             "ffprobe says rotation=90 (its angle is counter-clockwise). "
                             "Where the matrix also mirrors the picture, the turn before "
                             "mirrored's mirroring. Counts do not depend on it.")
      .def_property_readonly("mirrored", &VideoHistograms::mirrored,
                             "Whether the frames, once turned by rotation, are mirrored left to "
                             "right to be shown as the display matrix asks (a matrix that "
                             "mirrors x alone: rotation 0 and mirrored, where ffprobe says "
                             "rotation=-180).")
      .def_property_readonly(
          "errors", &VideoHistograms::errors,
          "Errors the demuxer and decoder met so far (a file that ends early, a damaged slice "
          "concealed, a frame dropped); the frames that decoded are still given.")
      .def_property_readonly("first_error", &VideoHistograms::first_error,
                             "The first decoding error's message, or '' when there is none.");
  const char* const doc =
      "The histograms of a video's frames, as an iterator of (index, time, Histogram): "
      "FFmpeg decodes every frame to RGB, as `gpuhist video` does. With space=\"ycbcr\", "
      "the Y', Cb and Cr planes as decoded, with no conversion, as `gpuhist video --space "
      "ycbcr` counts them: (index, time, {\"y\", \"cb\", \"cr\"}) of PlaneHistograms, "
      "levels deeper than 8 bits shifted up to 16 (bins=1024 gives a 10-bit "
      "stream one bin a level); a stream that is not planar Y'CbCr or grey raises OSError, "
      "luma (default \"709\", RGB's luminance weights) with it a ValueError. FFmpeg decodes on "
      "`threads` threads, as `ffmpeg -threads N` (default: one per core, "
      "at most 16); a damaged stream's concealed frames depend on them, and threads=1 "
      "decodes them the same on every machine. "
      "Raises FileNotFoundError or OSError naming the file for a file that cannot be opened, "
      "ValueError for bad options.";
  m.def(
      "video",
      [](const FilePath& path, Whole bins, const std::optional<Name>& luma,
         const std::optional<std::string>& strategy, const std::optional<Name>& device,
         Whole max_pixels, const std::string& space, std::optional<Whole> threads) {
        return std::make_unique<VideoHistograms>(default_context(device), path, bins, luma,
                                                 strategy, max_pixels, space, threads);
      },
      py::arg("path"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = std::nullopt,
      py::arg("strategy") = std::nullopt, py::arg("device") = std::nullopt,
      py::arg("max_pixels") = kDefaultMaxPixels, py::arg("space") = "rgb",
      py::arg("threads") = std::nullopt, doc);
  context.def(
      "video",
      [](const py::object& self, const FilePath& path, Whole bins, const std::optional<Name>& luma,
         const std::optional<std::string>& strategy, Whole max_pixels, const std::string& space,
         std::optional<Whole> threads) {
        return std::make_unique<VideoHistograms>(shared_of(self), path, bins, luma, strategy,
                                                 max_pixels, space, threads);
      },
      py::arg("path"), py::arg("bins") = 256, py::kw_only(), py::arg("luma") = std::nullopt,
      py::arg("strategy") = std::nullopt, py::arg("max_pixels") = kDefaultMaxPixels,
      py::arg("space") = "rgb", py::arg("threads") = std::nullopt, doc);
}

}  // namespace gpuhist::python
