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

#include "gpuhist/error.hpp"
#include "vulkan/context_impl.hpp"
#include "vulkan/gpu_stream.hpp"

namespace gpuhist {

struct FrameStream::Impl {
  const Context* context = nullptr;
  Context::Impl* shared = nullptr;  // the context's device, counter and lock
  ImageView shape;                  // the frames' size and format (no pixels)
  HistogramOptions options;
  RunOptions run;
  std::optional<vk::GpuStream> slots;  // absent: each frame is counted when pushed
  std::deque<std::size_t> pending;     // busy slots, oldest first
  std::size_t next = 0;                // the slot the next frame goes to
  std::vector<std::byte> scratch;      // a written frame counted at once

  std::deque<Histogram> ready;  // counted, not yet returned (a failed write leaves one)

  // Frees the next slot, has `fill` write a frame into it and submits it;
  // the oldest histogram not yet returned, if any. When `fill` throws, its
  // frame is not counted and nothing is lost: the histogram is returned later.
  std::optional<Histogram> push_slot(const std::function<void(std::byte*)>& fill) {
    if (slots->busy(next)) {
      // Slots are taken in turn, so the busy next one holds the oldest frame.
      pending.pop_front();
      ready.push_back(std::move(slots->collect(next).front()));
    }
    fill(slots->frame(next));
    {
      std::lock_guard lock(shared->mutex);
      slots->submit(next);
    }
    pending.push_back(next);
    next = (next + 1) % slots->size();
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
                         std::uint32_t in_flight)
    : impl_(std::make_unique<Impl>()) {
  validate(options);
  if (width == 0 || height == 0) {
    throw Error(ErrorKind::InvalidArgument, "a frame stream needs frames of at least 1x1 pixels");
  }
  if (in_flight == 0) {
    throw Error(ErrorKind::InvalidArgument, "a frame stream needs at least 1 frame in flight");
  }
  Impl& s = *impl_;
  s.context = &context;
  s.shared = context.impl_.get();
  s.shape = ImageView::packed(nullptr, width, height, format);
  s.options = options;
  s.run = run;
  s.run.strategy = run.strategy.value_or(context.default_strategy());
  const bool gpu = *s.run.strategy != Strategy::Cpu && *s.run.strategy != Strategy::CpuReference;
  if (gpu && !s.shared->counter) {
    throw Error(ErrorKind::InvalidArgument,
                "strategy " + std::string(to_string(*s.run.strategy)) +
                    " needs a Vulkan device, but none is in use (no Vulkan device found, or "
                    "--device cpu)");
  }
  if (*s.run.strategy != Strategy::Gpu) return;
  std::lock_guard lock(s.shared->mutex);
  try {
    vk::StreamSetup setup;
    setup.slots = in_flight;
    s.slots.emplace(*s.shared->counter, s.shape, options, setup);
  } catch (const Error& e) {
    // A frame too large for one upload is counted when pushed, in batches.
    if (e.kind() != ErrorKind::InvalidArgument) throw;
  }
}

FrameStream::FrameStream(FrameStream&&) noexcept = default;
FrameStream& FrameStream::operator=(FrameStream&&) noexcept = default;
FrameStream::~FrameStream() = default;

std::optional<Histogram> FrameStream::push(const ImageView& frame) {
  Impl& s = *impl_;
  validate(frame);
  s.check_shape(frame);
  if (!s.slots) return s.context->compute(frame, s.options, s.run);
  return s.push_slot([&](std::byte*) { s.slots->write(s.next, frame); });
}

std::optional<Histogram> FrameStream::push(const FrameWriter& write) {
  Impl& s = *impl_;
  const std::size_t row = std::size_t{s.shape.width} * pixel_bytes(s.shape.format);
  if (!s.slots) {
    s.scratch.resize(row * s.shape.height);
    write(s.scratch.data(), row);
    ImageView frame = s.shape;
    frame.data = s.scratch.data();
    return s.context->compute(frame, s.options, s.run);
  }
  return s.push_slot([&](std::byte* pixels) { write(pixels, row); });
}

std::vector<Histogram> FrameStream::finish() {
  Impl& s = *impl_;
  std::vector<Histogram> out(std::make_move_iterator(s.ready.begin()),
                             std::make_move_iterator(s.ready.end()));
  s.ready.clear();
  while (!s.pending.empty()) {
    const std::size_t i = s.pending.front();
    s.pending.pop_front();
    out.push_back(std::move(s.slots->collect(i).front()));
  }
  return out;
}

std::uint32_t FrameStream::in_flight() const noexcept {
  return impl_->slots ? static_cast<std::uint32_t>(impl_->slots->size()) : 1U;
}

std::size_t FrameStream::pending() const noexcept {
  return impl_->pending.size() + impl_->ready.size();
}

}  // namespace gpuhist
