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

class FrameStream {
 public:
  // A stream of width x height frames of `format` on `context` (which must
  // outlive it), counted with `run`'s strategy (default: the context's). With
  // the `gpu` strategy on a Vulkan device, up to `in_flight` frames are
  // counted at once, each from its own device-visible slot; with any other
  // strategy, or a frame too large for one upload, each frame is counted when
  // it is pushed. Throws Error(InvalidArgument) for a zero size, bad options,
  // in_flight 0, or a GPU strategy on a CPU-only context; Error(Device) when
  // the device fails.
  FrameStream(const Context& context, std::uint32_t width, std::uint32_t height, PixelFormat format,
              const HistogramOptions& options = {}, const RunOptions& run = {},
              std::uint32_t in_flight = 3);
  FrameStream(const FrameStream&) = delete;
  FrameStream& operator=(const FrameStream&) = delete;
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
  // histogram is lost (a later push or finish returns it).
  std::optional<Histogram> push(const FrameWriter& write);
  // Waits for every pending frame; their histograms, oldest first.
  [[nodiscard]] std::vector<Histogram> finish();

  // Frames counted at once: 1 when each is counted as it is pushed.
  [[nodiscard]] std::uint32_t in_flight() const noexcept;
  // Frames pushed whose histograms have not been returned yet.
  [[nodiscard]] std::size_t pending() const noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
