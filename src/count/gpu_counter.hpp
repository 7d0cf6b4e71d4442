// Runs the GPU strategies of the ladder on one device: splits an image into
// batches that fit the device's buffer limits and 32-bit counters, uploads each,
// records the strategy's dispatches, and adds the read-back counts in 64 bits.
// Also times strategies on resident pixels, for the benchmark (gpu_profile.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "count/gpu_plan.hpp"
#include "count/host_upload.hpp"
#include "count/shaders.hpp"
#include "gpuhist/device_info.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/handles.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {
class Device;
class OneTimeCommands;
class Submission;
}  // namespace gpuhist::vk

namespace gpuhist::count {

// GPU times of repeated runs on resident pixels, and the histogram they gave.
struct Profile {
  Histogram histogram;
  std::vector<double> gpu_ms;  // one per repetition
};

// Frames counted from host memory, several in flight.
enum class StreamMode : std::uint8_t {
  Direct,  // the shader reads the frame where the host wrote it (over the bus)
  Copy,    // each frame is copied to device-local memory, then counted there
  Push,    // as Direct, but the host copies each frame into its slot first (FrameStream::push)
};
// How a stream's slots are laid out and filled.
struct StreamSetup {
  std::uint32_t slots = 3;  // submissions in flight, each with its own buffers
  StreamMode mode = StreamMode::Direct;
  std::uint32_t queues = 1;             // queues the slots take in turn (at most the device's)
  std::uint32_t frames_per_submit = 1;  // frames one submission counts
  std::uint32_t copy_threads = 0;       // threads copying a frame into its slot (0: by size)
  // Frames in host-cached memory (the host writes them faster; on the H200
  // the device read them as fast) instead of plain host-coherent upload memory.
  bool cached = true;
};

class GpuCounter {
 public:
  friend class GpuStream;  // builds its slots from the counter's plan, pipelines and recording

  explicit GpuCounter(const vk::Device& device, GpuLimits limits = {});

  void set_tuning(const GpuTuning& tuning) { tuning_ = tuning; }
  void set_upload(const UploadSetup& upload) { upload_ = upload; }
  [[nodiscard]] const DeviceInfo& device_info() const noexcept;
  [[nodiscard]] const vk::Device& device() const noexcept { return device_; }
  // Bytes of the staging buffer the host writes for the device's copies (0: none yet).
  [[nodiscard]] std::uint64_t staging_bytes() const noexcept { return staging_.size(); }

  // Counts a validated image with a GPU strategy. Throws Error(InvalidArgument)
  // for a chunk shape the device cannot run, Error(Device) on device failure.
  [[nodiscard]] Histogram count(const ImageView& image, const HistogramOptions& options,
                                Strategy strategy, ChunkShape chunk);

  // Uploads the image once, then times `repetitions` complete runs of the
  // strategy (zeroing the counters included) with GPU timestamps. The image
  // must fit in one batch. Throws Error(Device) when the device has no
  // timestamps on its compute queue.
  [[nodiscard]] Profile profile(const ImageView& image, const HistogramOptions& options,
                                Strategy strategy, ChunkShape chunk, std::uint32_t repetitions);

 private:
  // plan_gpu for this counter's device, limits and tuning.
  [[nodiscard]] GpuPlan make_plan(const ImageView& image, const HistogramOptions& options,
                                  Strategy strategy, ChunkShape chunk,
                                  bool planes_allowed = true) const;
  // Sizes the buffers for batches of up to `largest_batch_pixels`.
  // A staging buffer when `staging` (by default, when the device's memory
  // is not unified) or when mapped pixels were asked for but refused. The
  // pixels' buffer is mapped device-local memory when `mapped` (by default,
  // on unified memory) and the device allows it, and when it already was and
  // is large enough.
  // Staging holds `staging_bytes` where that is not 0, else the largest batch.
  void prepare(const GpuPlan& plan, std::uint64_t largest_batch_pixels, std::uint64_t bpp,
               std::optional<bool> staging = std::nullopt,
               std::optional<bool> mapped = std::nullopt, std::uint64_t staging_bytes = 0);
  // Copies the batch's pixels, tightly packed, to `destination`.
  // With non-temporal stores where `stream`.
  void upload(const ImageView& image, const Batch& batch, void* destination, bool stream) const;
  // As upload(), on several threads for large batches of whole rows (host_upload.cpp).
  void write_batch(const ImageView& image, const Batch& batch, void* destination) const;
  // The threads that write the parts of a batch of `bytes` (plan_parts sizes
  // the parts for them, upload_parts starts them).
  [[nodiscard]] std::uint32_t part_writers(std::uint64_t bytes) const;
  // Upload::Parts: the rows of each part of a batch (one part, rows {0, 0},
  // for a piece of a row), through a ring of `ring` parts (0: none).
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint32_t>> plan_parts(
      const ImageView& image, const Batch& batch, std::uint32_t ring) const;
  // The staging an upload in parts through a ring of `ring` parts needs: the
  // most any of the plan's batches needs; 0 without a ring.
  [[nodiscard]] std::uint64_t ring_bytes(const ImageView& image, const GpuPlan& plan,
                                         std::uint32_t ring) const;
  // Writes the parts into staging_ on several threads (`mapped_sixteenths` of
  // them, spread evenly, straight into pixels_ where it is mapped; staging a
  // ring of `ring` parts where that is not 0) and submits the
  // device's copies of them, runs of landed parts in order, into `copies`
  // (which the caller keeps until the work is done), then calls
  // `submit_count` (on the calling thread), which submits the rest. A part
  // that cannot be written leaves the count unsubmitted and its error thrown;
  // a writing thread that cannot be started leaves the parts to the others
  // (the calling thread writes them where none started) and its error is
  // thrown after the count is submitted.
  void upload_parts(const ImageView& image, const Batch& batch,
                    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts,
                    std::uint32_t mapped_sixteenths, std::uint32_t ring,
                    const std::function<void()>& submit_count,
                    std::vector<std::unique_ptr<vk::OneTimeCommands>>& copies);
  [[nodiscard]] std::array<VkBuffer, vk::kBufferBindings> bindings(const GpuPlan& plan) const;
  void record(vk::Submission& submission, const GpuPlan& plan, const Batch& batch);
  void record_chunks(vk::Submission& submission, const GpuPlan& plan, const Batch& batch);
  // GpuPlan::planes: records the pass that writes the batch's planes of bins
  // and binds them where the count reads pixels (`buffers` are the bindings
  // before); the count's binning constants become one 16-bit channel, and
  // params.stride the quads per plane.
  void record_planes(vk::Submission& submission, const Batch& batch,
                     const std::array<VkBuffer, vk::kBufferBindings>& buffers, CountParams& params,
                     std::vector<vk::SpecConstant>& constants);
  void add_readback(const GpuPlan& plan, Histogram& out) const;
  static void add_counts(const GpuPlan& plan, const vk::Buffer& readback, Histogram& out);
  // Records the zeroing of the counters a run adds to: the result, unless the
  // run writes it whole, and the merge copies, unless an earlier run left them
  // zero (each run's merge pass clears them). Until counters_settled(), a
  // failure leaves them unknown (see CountersGuard). False when nothing needed zeroing.
  bool zero_counters(vk::Submission& submission, const GpuPlan& plan);
  void counters_settled() { copies_pending_ = false; }
  const vk::Device& device_;
  GpuLimits limits_;
  GpuTuning tuning_;
  UploadSetup upload_;
  vk::Pipelines pipelines_;
  vk::Buffer staging_;  // pixels as the host writes them for the device's copies
  vk::Buffer pixels_;   // pixels as read by the shaders
  // pixels_ is mapped device-local memory (which also serves where it is not asked for)
  bool pixels_mapped_ = false;
  // The size of the smallest mapped pixel buffer the device could not allocate.
  VkDeviceSize mappable_refused_ = ~VkDeviceSize{0};
  vk::Buffer chunks_;    // per-chunk histograms of the chunk strategies; gpu's merge copies
  vk::Buffer result_;    // bins * 4 counters of the batch
  vk::Buffer readback_;  // the result, copied where the host can read it
  vk::Buffer planes_;    // four planes of 16-bit bins (GpuPlan::planes)
  // Bytes at the start of chunks_ that are zero once the recorded work has run:
  // every `gpu` run with merge copies leaves them so.
  VkDeviceSize clean_copy_bytes_ = 0;
  bool copies_pending_ = false;  // work that relies on clean_copy_bytes_ not yet finished

 public:
  // Forgets that the merge copies are zero when work recorded in its scope did
  // not finish (an exception before counters_settled()).
  class CountersGuard {
   public:
    explicit CountersGuard(GpuCounter& counter) : counter_(counter) {}
    CountersGuard(const CountersGuard&) = delete;
    CountersGuard& operator=(const CountersGuard&) = delete;
    ~CountersGuard() {
      if (counter_.copies_pending_) counter_.clean_copy_bytes_ = 0;
      counter_.copies_pending_ = false;
    }

   private:
    GpuCounter& counter_;
  };
};

}  // namespace gpuhist::count
