#include "gpuhist/frame_stream.hpp"

#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "count/gpu_stream.hpp"
#include "engine/context_impl.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {

struct FrameStream::Impl {
  // The context's device, counter and lock, shared: they stay open while the
  // stream lives, wherever the Context goes. First, so destroyed last.
  std::shared_ptr<Context::Impl> shared;
  ImageView shape;                  // the frames' size and format (no pixels)
  HistogramOptions options;
  RunOptions run;
  std::optional<count::GpuStream> slots;  // absent: each frame is counted when pushed
  struct Submitted {
    std::size_t slot;
    std::uint32_t frames;  // the first `frames` of the slot's frames were written
  };
  std::deque<Submitted> submitted;  // oldest first
  std::size_t next = 0;             // the slot the next frame goes to
  std::uint32_t filled = 0;         // frames already written into it
  std::deque<Histogram> ready;      // counted, not yet returned, oldest first
  std::vector<std::byte> scratch;   // a written frame counted at once

  void submit_next() {
    {
      std::lock_guard lock(shared->mutex);
      slots->submit(next);
    }
    submitted.push_back({next, filled});
    next = (next + 1) % slots->size();
    filled = 0;
  }

  // Waits for the oldest submission; its frames' histograms join `ready`.
  void collect_oldest() {
    const Submitted oldest = submitted.front();
    submitted.pop_front();
    std::vector<Histogram> counted = slots->collect(oldest.slot);
    for (std::uint32_t f = 0; f < oldest.frames; ++f) ready.push_back(std::move(counted[f]));
  }

  // Has `fill` write the next frame into its slot (first freeing the slot,
  // which holds the oldest submission when busy) and submits the slot once
  // full; the oldest histogram not yet returned, if any. When `fill` throws,
  // its frame is not counted and nothing is lost.
  std::optional<Histogram> push_slot(const std::function<void(std::byte*)>& fill) {
    if (filled == 0 && slots->busy(next)) collect_oldest();
    fill(slots->frame(next, filled));
    if (++filled == slots->frames_per_submit()) submit_next();
    if (ready.empty()) return std::nullopt;
    Histogram oldest = std::move(ready.front());
    ready.pop_front();
    return oldest;
  }

  void check_shape(const ImageView& frame) const {
    if (frame.width != shape.width || frame.height != shape.height ||
        frame.format != shape.format) {
      throw Error(ErrorKind::InvalidArgument,
                  "frame of " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
                      " " + to_string(frame.format) + " pushed to a stream of " +
                      std::to_string(shape.width) + "x" + std::to_string(shape.height) + " " +
                      to_string(shape.format));
    }
  }
};

FrameStream::FrameStream(const Context& context, std::uint32_t width, std::uint32_t height,
                         PixelFormat format, const HistogramOptions& options, const RunOptions& run,
                         const StreamOptions& stream)
    : impl_(std::make_unique<Impl>()) {
  validate(options);
  validate(format);
  if (width == 0 || height == 0) {
    throw Error(ErrorKind::InvalidArgument, "a frame stream needs frames of at least 1x1 pixels");
  }
  if (stream.in_flight == 0 || stream.in_flight > 64 || stream.frames_per_submit == 0 ||
      stream.frames_per_submit > 64) {
    throw Error(ErrorKind::InvalidArgument,
                "a frame stream needs 1 to 64 submissions in flight of 1 to 64 frames each (got " +
                    std::to_string(stream.in_flight) + " of " +
                    std::to_string(stream.frames_per_submit) + ")");
  }
  validate(run);
  Impl& s = *impl_;
  s.shared = context.share();
  s.shape = ImageView::packed(nullptr, width, height, format);
  s.options = options;
  s.run = run;
  s.run.strategy = run.strategy.value_or(context.default_strategy());
  const bool gpu = *s.run.strategy != Strategy::Cpu && *s.run.strategy != Strategy::CpuReference;
  if (!gpu) return;
  count::GpuCounter& counter = s.shared->counter_for(*s.run.strategy);
  if (*s.run.strategy != Strategy::Gpu) return;
  std::lock_guard lock(s.shared->mutex);
  try {
    count::StreamSetup setup;
    setup.slots = stream.in_flight;
    setup.frames_per_submit = stream.frames_per_submit;
    s.slots.emplace(counter, s.shape, options, setup);
  } catch (const Error& e) {
    // A frame too large for one upload is counted when pushed, in batches.
    if (e.kind() != ErrorKind::InvalidArgument) throw;
  }
}

FrameStream::FrameStream(FrameStream&&) noexcept = default;
FrameStream& FrameStream::operator=(FrameStream&&) noexcept = default;
FrameStream::~FrameStream() = default;

namespace {
[[noreturn]] void moved_from() {
  throw Error(ErrorKind::InvalidArgument, "this FrameStream was moved from: it counts nothing");
}
}  // namespace

std::optional<Histogram> FrameStream::push(const ImageView& frame) {
  if (!impl_) moved_from();
  Impl& s = *impl_;
  validate(frame);
  s.check_shape(frame);
  if (!s.slots) return s.shared->compute(frame, s.options, *s.run.strategy, s.run);
  return s.push_slot([&](std::byte*) { s.slots->write(s.next, frame, s.filled); });
}

std::optional<Histogram> FrameStream::push(const FrameWriter& write) {
  if (!impl_) moved_from();
  if (!write) throw Error(ErrorKind::InvalidArgument, "FrameStream::push: an empty FrameWriter");
  Impl& s = *impl_;
  const std::size_t row = std::size_t{s.shape.width} * pixel_bytes(s.shape.format);
  if (!s.slots) {
    s.scratch.resize(row * s.shape.height);
    write(s.scratch.data(), row);
    ImageView frame = s.shape;
    frame.data = s.scratch.data();
    return s.shared->compute(frame, s.options, *s.run.strategy, s.run);
  }
  return s.push_slot([&](std::byte* pixels) { write(pixels, row); });
}

std::vector<Histogram> FrameStream::finish() {
  if (!impl_) moved_from();
  Impl& s = *impl_;
  if (s.filled > 0) s.submit_next();
  while (!s.submitted.empty()) s.collect_oldest();
  std::vector<Histogram> out(std::make_move_iterator(s.ready.begin()),
                             std::make_move_iterator(s.ready.end()));
  s.ready.clear();
  return out;
}

std::uint32_t FrameStream::in_flight() const noexcept {
  if (!impl_) return 0;
  const auto& slots = impl_->slots;
  return slots ? static_cast<std::uint32_t>(slots->size()) * slots->frames_per_submit() : 1U;
}

std::size_t FrameStream::pending() const noexcept {
  if (!impl_) return 0;
  const Impl& s = *impl_;
  std::size_t frames = s.filled + s.ready.size();
  for (const Impl::Submitted& sub : s.submitted) frames += sub.frames;
  return frames;
}

}  // namespace gpuhist
