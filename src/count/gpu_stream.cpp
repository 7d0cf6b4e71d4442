// Frames counted from host-visible slots with several in flight.
#include "count/gpu_stream.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/row_parts.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::count {

GpuStream::GpuStream(GpuCounter& counter, const ImageView& shape, const HistogramOptions& options,
                     const StreamSetup& setup)
    : counter_(counter),
      plan_(counter.make_plan(shape, options, Strategy::Gpu, ChunkShape::Row256x1, false)),
      bins_(options.bins),
      colour_(is_colour(shape.format.layout)),
      per_submit_(std::max(1U, setup.frames_per_submit)),
      copy_threads_(setup.copy_threads) {
  const StreamMode mode = setup.mode;
  if (plan_.batches.size() != 1) {
    throw Error(ErrorKind::InvalidArgument, "frame too large to stream in one batch");
  }
  batch_ = plan_.batches.front();
  frame_bytes_ = std::uint64_t{batch_.pixel_count} * plan_.bpp;
  const vk::Device& device = counter.device_;
  constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  constexpr VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  constexpr VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

  slots_.resize(std::max(1U, setup.slots));
  for (Slot& slot : slots_) {
    slot.frames.resize(per_submit_);
    for (Frame& f : slot.frames) {
      // 16 bytes more than the pixels: the shader may read whole 16-byte quads.
      f.host = vk::Buffer(device, frame_bytes_ + 16, storage | src,
                          setup.cached ? vk::MemoryUse::Readback : vk::MemoryUse::Upload);
      if (mode == StreamMode::Copy) {
        f.device = vk::Buffer(device, frame_bytes_ + 16, storage | dst, vk::MemoryUse::DeviceLocal);
      }
      f.copies =
          vk::Buffer(device, plan_.copies_bytes(), storage | dst, vk::MemoryUse::DeviceLocal);
      f.result = vk::Buffer(device, plan_.histogram_bytes, storage | dst | src,
                            vk::MemoryUse::DeviceLocal);
      // With merge copies the counts are written straight here (by the merge
      // pass, or by the last workgroup to merge).
      f.readback =
          vk::Buffer(device, plan_.histogram_bytes, storage | dst, vk::MemoryUse::Readback);
    }
  }

  const bool merged = plan_.merged();
  if (merged) {
    // Each run leaves its merge copies (and ticket) zero: they are cleared once, here.
    const Frame& any = slots_[0].frames[0];
    vk::Submission clear(device, counter.pipelines_,
                         {any.host.get(), any.copies.get(), any.result.get()});
    for (Slot& slot : slots_) {
      for (Frame& f : slot.frames) clear.zero(f.copies.get(), plan_.copies_bytes());
    }
    clear.submit_and_wait();
  }
  queues_ = std::clamp(setup.queues, 1U, device.queue_count());
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    std::unique_ptr<vk::Submission> s;
    for (Frame& f : slot.frames) {
      const VkBuffer pixels = mode == StreamMode::Copy ? f.device.get() : f.host.get();
      const std::array<VkBuffer, vk::kBufferBindings> buffers{
          pixels, merged ? f.copies.get() : f.result.get(),
          merged ? f.readback.get() : f.result.get()};
      if (!s) {
        s = std::make_unique<vk::Submission>(device, counter.pipelines_, buffers, true,
                                             static_cast<std::uint32_t>(i % queues_));
      } else {
        s->bind(buffers);
      }
      if (mode == StreamMode::Copy) s->copy(f.host.get(), f.device.get(), frame_bytes_);
      // Without merge copies the shader adds straight to the result.
      if (!merged) s->zero(f.result.get(), plan_.histogram_bytes);
      // The copied frame and the zeroed counters must land before the shader
      // reads them. A frame read in place with merge copies needs nothing first
      // (the host wrote it before the submission; its copies are clear), so its
      // counting may overlap the end of the frame before.
      if (mode == StreamMode::Copy || !merged) s->barrier();
      counter.record(*s, plan_, batch_);
      if (!merged) {
        // The counts must be final before they are copied out.
        s->barrier();
        s->copy(f.result.get(), f.readback.get(), plan_.histogram_bytes);
      }
    }
    // The counts (copied, or written by the merge) must be visible to the
    // host after the wait.
    s->barrier_to_host();
    slot.work = std::move(s);
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

std::byte* GpuStream::frame(std::size_t i, std::size_t j) const {
  return static_cast<std::byte*>(slots_.at(i).frames.at(j).host.mapped());
}

void GpuStream::write(std::size_t i, const ImageView& image, std::size_t j) const {
  std::byte* out = frame(i, j);
  const std::size_t row_bytes = std::size_t{image.width} * plan_.bpp;
  // Parts of at least 4 MiB: starting a thread costs about as much as copying
  // less (on the H200's host, 8 threads copied a 1920x1080 frame slower than one).
  const std::uint32_t parts =
      copy_threads_ > 0 ? copy_threads_ : row_parts(image.height, (4U << 20) / row_bytes + 1);
  // A frame that fits one batch is whole rows: each part uploads its own.
  for_row_parts(image.height, parts, [&](std::uint32_t, std::uint32_t y0, std::uint32_t y1) {
    counter_.upload(image, Batch{y0, 0, (y1 - y0) * image.width, image.width},
                    out + std::size_t{y0} * row_bytes, counter_.upload_.stream);
  });
}

void GpuStream::submit(std::size_t i) {
  Slot& slot = slots_.at(i);
  slot.work->submit();
  slot.busy = true;
}

std::vector<Histogram> GpuStream::collect(std::size_t i) {
  Slot& slot = slots_.at(i);
  slot.busy = false;
  slot.work->wait();
  std::vector<Histogram> out;
  for (Frame& f : slot.frames) {
    out.emplace_back(bins_, colour_);
    GpuCounter::add_counts(plan_, f.readback, out.back());
    // Cleared once read: a frame whose counts were not written shows as
    // empty, never as an earlier frame's counts.
    std::memset(f.readback.mapped(), 0, plan_.histogram_bytes);
  }
  return out;
}

}  // namespace gpuhist::count
