// Histograms of a stream of frames of one shape (a video, a camera), counted
// with several frames in flight: the host writes one frame while the device
// counts the ones before it, and no frame waits for its own counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist {

// Frames written straight into the memory the device reads: `write(pixels,
// stride)` fills the frame's rows, `stride` bytes apart.
using FrameWriter = std::function<void(std::byte* pixels, std::size_t stride)>;

// How many frames a stream counts at once.
struct StreamOptions {
  std::uint32_t in_flight = 3;  // submissions counted at once, each with its own slot
  // Frames one submission counts. More than 1 raises the throughput on small
  // frames (one frame's end overlaps the next one's start; on the H200,
  // 1920x1080 frames went from about 90% of the bus rate to 97% with 4) but
  // holds each histogram back until its submission is full.
  std::uint32_t frames_per_submit = 1;
};

class FrameStream {
 public:
  // A stream of width x height frames of `format` on `context`'s device (which
  // the stream shares: it stays open while the stream lives, even when the
  // Context is moved, assigned to or destroyed), counted with `run`'s strategy
  // (default: the context's). With the `gpu` strategy on a Vulkan device, `stream.in_flight`
  // submissions of `stream.frames_per_submit` frames each are counted at once, every frame from its
  // own device-visible slot; with any other strategy, or a frame too large for one upload, each
  // frame is counted when it is pushed. Throws Error(InvalidArgument) for a zero size, bad options,
  // in_flight or frames_per_submit outside 1..64, or a GPU strategy on a CPU-only context;
  // Error(Device) when the device fails.
  FrameStream(const Context& context, std::uint32_t width, std::uint32_t height, PixelFormat format,
              const HistogramOptions& options = {}, const RunOptions& run = {},
              const StreamOptions& stream = {});
  FrameStream(const FrameStream&) = delete;
  FrameStream& operator=(const FrameStream&) = delete;
  // A moved-from stream counts nothing: push and finish throw
  // Error(InvalidArgument), pending() is 0.
  FrameStream(FrameStream&&) noexcept;
  FrameStream& operator=(FrameStream&&) noexcept;
  // Waits for the frames still in flight; their histograms are dropped.
  ~FrameStream();

  // Counts the next frame: `frame` must have the stream's size and format
  // (any stride); it is copied before push returns. Returns the histogram of
  // the oldest frame not yet returned once in_flight() frames are pending, so
  // histograms come back in the order the frames were pushed. Throws
  // Error(InvalidArgument) for a frame of another shape, Error(Device) when
  // the device fails.
  std::optional<Histogram> push(const ImageView& frame);
  // The same, with the frame's pixels written by `write` where the device
  // reads them, with no copy in between. When `write` throws, that frame is
  // not counted; the exception reaches the caller and no earlier frame's
  // histogram is lost (a later push or finish returns it). An empty `write`
  // is Error(InvalidArgument).
  std::optional<Histogram> push(const FrameWriter& write);
  // Counts the frames of a submission not yet full, waits for every pending
  // frame, and returns their histograms, oldest first.
  [[nodiscard]] std::vector<Histogram> finish();

  // Frames the stream holds before push returns histograms: in_flight x
  // frames_per_submit, or 1 when each frame is counted as it is pushed.
  [[nodiscard]] std::uint32_t in_flight() const noexcept;
  // Frames pushed whose histograms have not been returned yet.
  [[nodiscard]] std::size_t pending() const noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
