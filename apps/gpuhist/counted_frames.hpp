// Decoded video frames counted through a FrameStream, several in flight, and
// handed back with their histograms in decoding order.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "gpuhist/context.hpp"
#include "gpuhist/frame_stream.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/video_file.hpp"

namespace gpuhist::cli {

// Receives each frame once its histogram is counted, oldest first.
using CountedFrame = std::function<void(VideoFrame& frame, Histogram& histogram)>;

class CountedFrames {
 public:
  CountedFrames(const Context& context, const HistogramOptions& options, const RunOptions& run,
                const StreamOptions& stream = {})
      : context_(context), options_(options), run_(run), stream_options_(stream) {}

  // Counts `frame` (kept until its histogram is handed to `done`). A frame of
  // another size or format than the one before starts a new stream, after the
  // frames of the old one are handed over.
  void push(VideoFrame frame, const CountedFrame& done);
  // Hands over every frame still being counted.
  void finish(const CountedFrame& done);

 private:
  void hand_over(Histogram& histogram, const CountedFrame& done);

  const Context& context_;
  HistogramOptions options_;
  RunOptions run_;
  StreamOptions stream_options_;
  std::optional<FrameStream> stream_;
  std::uint32_t width_ = 0, height_ = 0;  // the stream's frames
  PixelFormat format_{};
  std::deque<VideoFrame> pending_;  // pushed, not yet handed over, oldest first
};

}  // namespace gpuhist::cli
