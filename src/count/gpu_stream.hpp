// Frames of one shape counted with the `gpu` strategy from host-visible
// slots, several in flight: each slot owns its frame memory, counters and
// commands (recorded once, submitted again for every frame that lands in it),
// so the host writes one frame while the device counts others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "count/gpu_counter.hpp"
#include "count/gpu_plan.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "vulkan/buffer.hpp"

namespace gpuhist::count {

class GpuStream {
 public:
  // Slots for frames shaped like `shape` (its pixels are not read), laid
  // out as `setup` says: each slot holds `frames_per_submit` frames that one
  // submission counts (their dispatches may overlap). Throws
  // Error(InvalidArgument) when a frame does not fit in one batch,
  // Error(Device) when the device fails (out of memory).
  GpuStream(GpuCounter& counter, const ImageView& shape, const HistogramOptions& options,
            const StreamSetup& setup);
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;
  GpuStream(GpuStream&&) = delete;
  GpuStream& operator=(GpuStream&&) = delete;
  // Waits for the frames still in flight (their counts are dropped).
  ~GpuStream();

  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  [[nodiscard]] std::uint32_t frames_per_submit() const noexcept { return per_submit_; }
  // Queues the slots take in turn.
  [[nodiscard]] std::uint32_t queues() const noexcept { return queues_; }
  // Bytes of one frame, tightly packed: width * height * bytes per pixel.
  [[nodiscard]] std::uint64_t frame_bytes() const noexcept { return frame_bytes_; }
  // Where frame j of slot i is written by the host, tightly packed. Only
  // while the slot is not busy.
  [[nodiscard]] std::byte* frame(std::size_t i, std::size_t j = 0) const;
  // Copies `image` (of the stream's shape, any stride) into frame j of slot
  // i, on several threads for large frames.
  void write(std::size_t i, const ImageView& image, std::size_t j = 0) const;
  // Counts slot i's frames. The slot must not be busy.
  void submit(std::size_t i);
  [[nodiscard]] bool busy(std::size_t i) const { return slots_.at(i).busy; }
  // Waits for slot i and returns its frames' histograms; the slot is free again.
  [[nodiscard]] std::vector<Histogram> collect(std::size_t i);

 private:
  struct Frame {
    vk::Buffer host;      // the frame, where the host writes it
    vk::Buffer device;    // its device-local copy (StreamMode::Copy)
    vk::Buffer copies;    // the merge copies
    vk::Buffer result;    // its counts
    vk::Buffer readback;  // its counts, for the host
  };
  struct Slot {
    std::vector<Frame> frames;
    std::unique_ptr<vk::Submission> work;  // recorded once, submitted for every use of the slot
    bool busy = false;
  };

  GpuCounter& counter_;
  GpuPlan plan_;
  Batch batch_;
  std::uint32_t bins_;
  bool colour_;
  std::uint64_t frame_bytes_ = 0;
  std::uint32_t queues_ = 1;
  std::uint32_t per_submit_ = 1;
  std::uint32_t copy_threads_ = 0;
  std::vector<Slot> slots_;
};

}  // namespace gpuhist::count
