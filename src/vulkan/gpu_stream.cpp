// Frames counted from host-visible slots with several in flight, and the
// benchmark's stream of them.
#include "vulkan/gpu_stream.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::vk {

GpuStream::GpuStream(GpuCounter& counter, const ImageView& shape, const HistogramOptions& options,
                     std::uint32_t slots, StreamMode mode, std::uint32_t queues)
    : counter_(counter),
      plan_(counter.make_plan(shape, options, Strategy::Gpu, ChunkShape::Row256x1)),
      bins_(options.bins),
      colour_(is_colour(shape.format.layout)) {
  if (plan_.batches.size() != 1) {
    throw Error(ErrorKind::InvalidArgument, "frame too large to stream in one batch");
  }
  batch_ = plan_.batches.front();
  frame_bytes_ = std::uint64_t{batch_.pixel_count} * plan_.bpp;
  const Device& device = counter.device_;
  constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  constexpr VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  constexpr VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

  slots_.resize(std::max(1U, slots));
  for (Slot& slot : slots_) {
    // 16 bytes more than the pixels: the shader may read whole 16-byte quads.
    slot.host = Buffer(device, frame_bytes_ + 16, storage | src, MemoryUse::Upload);
    if (mode == StreamMode::Copy) {
      slot.device = Buffer(device, frame_bytes_ + 16, storage | dst, MemoryUse::DeviceLocal);
    }
    slot.copies = Buffer(device, plan_.copies_bytes(), storage | dst, MemoryUse::DeviceLocal);
    slot.result =
        Buffer(device, plan_.histogram_bytes, storage | dst | src, MemoryUse::DeviceLocal);
    // With merge copies the counts are written straight here (by the merge
    // pass, or by the last workgroup to merge).
    slot.readback = Buffer(device, plan_.histogram_bytes, storage | dst, MemoryUse::Readback);
  }

  const bool merged = plan_.merged();
  if (merged) {
    // Each run leaves its merge copies (and ticket) zero: they are cleared once, here.
    Submission clear(device, counter.pipelines_,
                     {slots_[0].host.get(), slots_[0].copies.get(), slots_[0].result.get()});
    for (Slot& slot : slots_) clear.zero(slot.copies.get(), plan_.copies_bytes());
    clear.submit_and_wait();
  }
  queues_ = std::clamp(queues, 1U, device.queue_count());
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    const VkBuffer pixels = mode == StreamMode::Copy ? slot.device.get() : slot.host.get();
    slot.work =
        std::make_unique<Submission>(device, counter.pipelines_,
                                     std::array<VkBuffer, kBufferBindings>{
                                         pixels, merged ? slot.copies.get() : slot.result.get(),
                                         merged ? slot.readback.get() : slot.result.get()},
                                     true, static_cast<std::uint32_t>(i % queues_));
    Submission& s = *slot.work;
    if (mode == StreamMode::Copy) s.copy(slot.host.get(), slot.device.get(), frame_bytes_);
    // Without merge copies the shader adds straight to the result.
    if (!merged) s.zero(slot.result.get(), plan_.histogram_bytes);
    // The copied frame and the zeroed counters must land before the shader
    // reads them. A frame read in place with merge copies needs nothing first
    // (the host wrote it before the submission; its slot's copies are clear),
    // so its counting may overlap the end of the frame before.
    if (mode == StreamMode::Copy || !merged) s.barrier();
    counter.record(s, plan_, batch_);
    if (!merged) {
      // The counts must be final before they are copied out.
      s.barrier();
      s.copy(slot.result.get(), slot.readback.get(), plan_.histogram_bytes);
    }
    // The counts (copied, or written by the merge) must be visible to the
    // host after the wait.
    s.barrier_to_host();
  }
}

GpuStream::~GpuStream() {
  for (Slot& slot : slots_) {
    if (!slot.busy) continue;
    try {
      slot.work->wait();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a lost device has nothing left to wait for
    }
  }
}

std::byte* GpuStream::frame(std::size_t i) const {
  return static_cast<std::byte*>(slots_.at(i).host.mapped());
}

void GpuStream::write(std::size_t i, const ImageView& image) const {
  counter_.upload(image, batch_, frame(i));
}

void GpuStream::submit(std::size_t i) {
  Slot& slot = slots_.at(i);
  slot.work->submit();
  slot.busy = true;
}

Histogram GpuStream::collect(std::size_t i) {
  Slot& slot = slots_.at(i);
  slot.busy = false;
  slot.work->wait();
  Histogram out(bins_, colour_);
  GpuCounter::add_counts(plan_, slot.readback, out);
  // Cleared once read: a frame whose counts were not written shows as empty,
  // never as an earlier frame's counts.
  std::memset(slot.readback.mapped(), 0, plan_.histogram_bytes);
  return out;
}

StreamResult GpuCounter::stream(const ImageView& frame, const HistogramOptions& options,
                                std::uint32_t frames, std::uint32_t in_flight, StreamMode mode,
                                std::uint32_t queues) {
  GpuStream slots(*this, frame, options, in_flight, mode, queues);
  // Every slot holds the same frame, written once, as a ring of frame
  // buffers filled by a decoder would be; or written before each submission.
  if (mode != StreamMode::Push) {
    for (std::size_t i = 0; i < slots.size(); ++i) slots.write(i, frame);
  }
  StreamResult out{Histogram(options.bins, is_colour(frame.format.layout))};
  out.queues = slots.queues();
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t f = 0; f < frames; ++f) {
    const std::size_t i = f % slots.size();
    if (slots.busy(i)) out.histogram = slots.collect(i);
    if (mode == StreamMode::Push) slots.write(i, frame);
    slots.submit(i);
  }
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::size_t i = (frames + k) % slots.size();
    if (slots.busy(i)) out.histogram = slots.collect(i);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double bytes = static_cast<double>(slots.frame_bytes()) * frames;
  out.gbps = out.seconds > 0 ? bytes / out.seconds / 1e9 : 0;
  out.fps = out.seconds > 0 ? frames / out.seconds : 0;
  return out;
}

}  // namespace gpuhist::vk
