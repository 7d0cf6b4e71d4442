// Runs the GPU strategies of the ladder on one device: splits an image into
// batches that fit the device's buffer limits and 32-bit counters, uploads each,
// records the strategy's dispatches, and adds the read-back counts in 64 bits.
#pragma once

#include <cstdint>
#include <vector>

#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {

class Device;
class Submission;

// A run of pixels counted in one submission, tiled `width` pixels to a row.
struct Batch {
  std::uint32_t y0 = 0;  // first image row
  std::uint32_t x0 = 0;  // first pixel in that row (non-zero only when rows are split)
  std::uint32_t pixel_count = 0;
  std::uint32_t width = 0;  // pixels per tile row (the image width, or the piece of a row)
};

// Splits an image into batches of at most `max_pixels` pixels: whole rows
// where a row fits, otherwise pieces of single rows.
[[nodiscard]] std::vector<Batch> plan_batches(std::uint32_t width, std::uint32_t height,
                                              std::uint64_t max_pixels);

// Sizes that bound one submission's buffers. The defaults suit every device;
// tests shrink them to exercise batching and waves on small images.
struct GpuLimits {
  std::uint64_t max_batch_bytes = 256ULL << 20;  // pixel bytes uploaded per batch
  std::uint64_t max_wave_bytes = 256ULL << 20;   // chunk-histogram bytes per wave
};

class GpuCounter {
 public:
  explicit GpuCounter(const Device& device, GpuLimits limits = {});

  // Counts a validated image with a GPU strategy. Throws Error(InvalidArgument)
  // for a chunk shape the device cannot run, Error(Device) on device failure.
  [[nodiscard]] Histogram count(const ImageView& image, const HistogramOptions& options,
                                Strategy strategy, ChunkShape chunk);

 private:
  struct Plan;
  void ensure(Buffer& buffer, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use);
  void upload(const ImageView& image, const Batch& batch, void* destination) const;
  void record(Submission& submission, const Plan& plan, const Batch& batch);
  void record_chunks(Submission& submission, const Plan& plan, const Batch& batch);

  const Device& device_;
  GpuLimits limits_;
  Pipelines pipelines_;
  Buffer staging_;   // pixels as written by the host (absent on unified memory)
  Buffer pixels_;    // pixels as read by the shaders
  Buffer chunks_;    // per-chunk histograms of the chunk strategies
  Buffer result_;    // bins * 4 counters of the batch
  Buffer readback_;  // the result, copied where the host can read it
};

}  // namespace gpuhist::vk
