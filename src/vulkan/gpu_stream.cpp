// The host-memory side of GpuCounter: a stream of frames counted with several
// submissions in flight, so that the device never waits for the host.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/gpu_counter.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::vk {
namespace {

// What one frame in flight owns.
struct Slot {
  Buffer host;                       // the frame, where the host wrote it
  Buffer device;                     // its device-local copy (StreamMode::Copy)
  Buffer copies;                     // the merge copies
  Buffer result;                     // its counts
  Buffer readback;                   // its counts, for the host
  std::unique_ptr<Submission> work;  // recorded once, submitted for every frame
};

}  // namespace

StreamResult GpuCounter::stream(const ImageView& frame, const HistogramOptions& options,
                                std::uint32_t frames, std::uint32_t in_flight, StreamMode mode,
                                std::uint32_t queues) {
  const GpuPlan plan = make_plan(frame, options, Strategy::Gpu, ChunkShape::Row256x1);
  if (plan.batches.size() != 1) {
    throw Error(ErrorKind::InvalidArgument, "frame too large to stream in one batch");
  }
  const Batch& batch = plan.batches.front();
  const VkDeviceSize bytes = VkDeviceSize{batch.pixel_count} * plan.bpp;
  constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  constexpr VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  constexpr VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;

  std::vector<Slot> slots(std::max(1U, in_flight));
  for (Slot& slot : slots) {
    // 16 bytes more than the pixels: the shader may read whole 16-byte quads.
    slot.host = Buffer(device_, bytes + 16, storage | src, MemoryUse::Upload);
    upload(frame, batch, slot.host.mapped());
    if (mode == StreamMode::Copy) {
      slot.device = Buffer(device_, bytes + 16, storage | dst, MemoryUse::DeviceLocal);
    }
    slot.copies = Buffer(device_, plan.copies_bytes(), storage | dst, MemoryUse::DeviceLocal);
    slot.result =
        Buffer(device_, plan.histogram_bytes, storage | dst | src, MemoryUse::DeviceLocal);
    // With merge copies the counts are written straight here (by the merge
    // pass, or by the last workgroup to merge).
    slot.readback = Buffer(device_, plan.histogram_bytes, storage | dst, MemoryUse::Readback);
  }

  const bool merged = plan.merged();
  if (merged) {
    // Each run leaves its merge copies (and ticket) zero: they are cleared once, here.
    Submission clear(device_, pipelines_,
                     {slots[0].host.get(), slots[0].copies.get(), slots[0].result.get()});
    for (Slot& slot : slots) clear.zero(slot.copies.get(), plan.copies_bytes());
    clear.submit_and_wait();
  }
  // Each slot's commands are recorded once and submitted again for every
  // frame that lands in it, as a ring of frame buffers would be used.
  const std::uint32_t queue_count = std::clamp(queues, 1U, device_.queue_count());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& slot = slots[i];
    const VkBuffer pixels = mode == StreamMode::Copy ? slot.device.get() : slot.host.get();
    slot.work =
        std::make_unique<Submission>(device_, pipelines_,
                                     std::array<VkBuffer, kBufferBindings>{
                                         pixels, merged ? slot.copies.get() : slot.result.get(),
                                         merged ? slot.readback.get() : slot.result.get()},
                                     true, static_cast<std::uint32_t>(i % queue_count));
    Submission& s = *slot.work;
    if (mode == StreamMode::Copy) s.copy(slot.host.get(), slot.device.get(), bytes);
    // Without merge copies the shader adds straight to the result.
    if (!merged) s.zero(slot.result.get(), plan.histogram_bytes);
    // The copied frame and the zeroed counters must land before the shader
    // reads them. A frame read in place with merge copies needs nothing first
    // (the host wrote it before the submission; its slot's copies are clear),
    // so its counting may overlap the end of the frame before.
    if (mode == StreamMode::Copy || !merged) s.barrier();
    record(s, plan, batch);
    if (!merged) {
      // The counts must be final before they are copied out.
      s.barrier();
      s.copy(slot.result.get(), slot.readback.get(), plan.histogram_bytes);
    }
    // The counts (copied, or written by the merge) must be visible to the
    // host after the wait.
    s.barrier_to_host();
  }

  StreamResult out{Histogram(options.bins, is_colour(frame.format.layout))};
  out.queues = queue_count;
  std::vector<bool> busy(slots.size(), false);
  const auto collect = [&](std::size_t i) {
    slots[i].work->wait();
    busy[i] = false;
    out.histogram = Histogram(options.bins, is_colour(frame.format.layout));
    add_counts(plan, slots[i].readback, out.histogram);
    // Cleared once read: a frame whose counts were not written shows as empty,
    // never as an earlier frame's counts.
    std::memset(slots[i].readback.mapped(), 0, plan.histogram_bytes);
  };
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t f = 0; f < frames; ++f) {
    const std::size_t i = f % slots.size();
    if (busy[i]) collect(i);
    slots[i].work->submit();
    busy[i] = true;
  }
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const std::size_t i = (frames + k) % slots.size();
    if (busy[i]) collect(i);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.gbps = out.seconds > 0 ? static_cast<double>(bytes) * frames / out.seconds / 1e9 : 0;
  out.fps = out.seconds > 0 ? frames / out.seconds : 0;
  return out;
}

}  // namespace gpuhist::vk
