// Runs the GPU strategies of the ladder on one device: splits an image into
// batches that fit the device's buffer limits and 32-bit counters, uploads each,
// records the strategy's dispatches, and adds the read-back counts in 64 bits.
// Also times strategies on resident pixels, for the benchmarks.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpuhist/device_info.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/gpu_plan.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {

class Device;
class Submission;

// Sizes that bound one submission's buffers. The defaults suit every device;
// tests shrink them to exercise batching and waves on small images.
struct GpuLimits {
  std::uint64_t max_batch_bytes = 256ULL << 20;  // pixel bytes uploaded per batch
  std::uint64_t max_wave_bytes = 256ULL << 20;   // chunk-histogram bytes per wave
};

// Knobs of the `gpu` strategy. Unset fields are derived from the device's
// limits; the benchmark sets them to search for better defaults.
struct GpuTuning {
  std::optional<std::uint32_t> group_size;       // invocations per workgroup
  std::optional<std::uint32_t> copies;           // private histograms per workgroup
  std::optional<std::uint32_t> copy_shift;       // invocation i uses copy (i >> shift) % copies
  std::optional<std::uint32_t> groups_per_unit;  // persistent workgroups per compute unit
  std::optional<bool> wide_loads;             // RGBA and grey in 16-byte loads, RGB in three words
  std::optional<bool> uniform_runs;           // subgroup-wide adds for uniform pixels
  std::optional<bool> interleave;             // copies of one counter side by side
  std::optional<std::uint32_t> unroll;        // wide loads per loop step
  std::optional<std::uint32_t> slice_pixels;  // pixels per dispatch (0: the whole batch)
  std::optional<std::uint32_t> merge_copies;  // global histograms, workgroup g adds to g % n
  std::optional<std::uint32_t> split;         // 1, 2 or 4 channel groups (default: fewest that fit)
  std::optional<bool> packed;  // 16-bit shared counters (default: only with ranges of bins)
  // Ranges of bins per channel, each counted in shared memory by its own
  // workgroups with 16-bit counters. 0 counts in global memory what shared
  // memory cannot hold; N uses at least N ranges (more where N do not fit);
  // unset, the fewest that fit, for integer samples of which one channel does
  // not fit in shared memory with 32-bit counters.
  std::optional<std::uint32_t> bin_ranges;
  // Ranges of bins of colour images counted from four planes of 16-bit bins
  // that a first pass writes (8 bytes per pixel of device memory), so that
  // each range reads its channel's plane rather than the whole image
  // (default: on, except in streams).
  std::optional<bool> planes;
  std::optional<bool> last_group_sums;         // no merge pass: the last workgroup sums the copies
  std::optional<std::uint32_t> global_rounds;  // grouping rounds before global atomics (default 0)
  std::optional<bool> quad_runs;               // subgroups of one-colour loads add 4 at once
  // RGBA8: each 32 neighbouring invocations read their 32 16-byte loads as
  // four rows of 32 pixels, so that one atomic of theirs meets 32 neighbouring
  // pixels rather than every fourth of 128 (default: off).
  std::optional<bool> rows;
};

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

struct StreamResult {
  Histogram histogram;          // of the last frame
  std::uint32_t frames = 0;     // counted: the frames asked for, rounded up to whole submissions
  std::uint32_t differing = 0;  // frames whose histogram differs from the last one's
  std::uint32_t frames_per_submit = 1;
  double seconds = 0;  // from the first submission to the last frame's counts on the host
  double gbps = 0;     // frame bytes per second
  double fps = 0;
  std::uint32_t queues = 1;  // queues the frames took in turn
};

class GpuCounter {
 public:
  friend class GpuStream;  // builds its slots from the counter's plan, pipelines and recording

  explicit GpuCounter(const Device& device, GpuLimits limits = {});

  void set_tuning(const GpuTuning& tuning) { tuning_ = tuning; }
  [[nodiscard]] const DeviceInfo& device_info() const noexcept;

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

  // Median GB/s of device-local to device-local copies of `bytes`, counting
  // bytes read plus bytes written.
  [[nodiscard]] double copy_rate(std::uint64_t bytes, std::uint32_t repetitions);
  // Median GB/s of copies of `bytes` from host-visible memory to device-local memory.
  [[nodiscard]] double upload_rate(std::uint64_t bytes, std::uint32_t repetitions);
  // Median GB/s (read + write) of a compute shader copying `bytes` between
  // device-local buffers in 16-byte words: what shaders can move, which on
  // some devices is far above what vkCmdCopyBuffer does.
  [[nodiscard]] double shader_copy_rate(std::uint64_t bytes, std::uint32_t repetitions);
  // Median GB/s of a compute shader that only reads `bytes` of device-local
  // memory in 16-byte words, as the counting kernels read pixels: their floor.
  [[nodiscard]] double shader_read_rate(std::uint64_t bytes, std::uint32_t repetitions);

  // Counts `frames` frames held in host-visible memory with the `gpu`
  // strategy, laid out and filled as `setup` says (the frames rounded up to
  // whole submissions). The image must fit in one batch.
  [[nodiscard]] StreamResult stream(const ImageView& frame, const HistogramOptions& options,
                                    std::uint32_t frames, const StreamSetup& setup);

 private:
  // `planes_allowed`: the counter's one planes buffer may serve the plan (not
  // for streams, whose frames are in flight together).
  [[nodiscard]] GpuPlan make_plan(const ImageView& image, const HistogramOptions& options,
                                  Strategy strategy, ChunkShape chunk,
                                  bool planes_allowed = true) const;
  // Where the `gpu` strategy's counters live (private copies, channel groups,
  // 16-bit counters, ranges of bins or global memory), from the device's
  // shared memory and the tuning; needs the plan's bins, bytes per pixel and
  // workgroup size.
  void plan_counters(GpuPlan& plan, const ImageView& image, bool planes_allowed) const;
  void prepare(const GpuPlan& plan, std::uint64_t largest_batch_pixels, std::uint64_t bpp);
  void upload(const ImageView& image, const Batch& batch, void* destination) const;
  [[nodiscard]] std::array<VkBuffer, kBufferBindings> bindings(const GpuPlan& plan) const;
  void record(Submission& submission, const GpuPlan& plan, const Batch& batch);
  void record_chunks(Submission& submission, const GpuPlan& plan, const Batch& batch);
  // GpuPlan::planes: records the pass that writes the batch's planes of bins
  // and binds them where the count reads pixels (`buffers` are the bindings
  // before); the count's binning constants become one 16-bit channel, and
  // params.stride the quads per plane.
  void record_planes(Submission& submission, const Batch& batch,
                     const std::array<VkBuffer, kBufferBindings>& buffers, PushParams& params,
                     std::vector<SpecConstant>& constants);
  void add_readback(const GpuPlan& plan, Histogram& out) const;
  static void add_counts(const GpuPlan& plan, const Buffer& readback, Histogram& out);
  // Records the zeroing of the counters a run adds to: the result, unless the
  // run writes it whole, and the merge copies, unless an earlier run left them
  // zero (each run's merge pass clears them). Until counters_settled(), a
  // failure leaves them unknown (see CountersGuard). False when nothing needed zeroing.
  bool zero_counters(Submission& submission, const GpuPlan& plan);
  void counters_settled() { copies_pending_ = false; }
  // Median GPU ms of `copy` recorded `repetitions` times, one at a time, in one
  // submission whose dispatches see `src` at binding 0 and `dst` at 1 and 2;
  // `prepare` is recorded once before the first.
  [[nodiscard]] double time_copies(VkBuffer src, VkBuffer dst, std::uint32_t repetitions,
                                   const std::function<void(Submission&)>& copy,
                                   const std::function<void(Submission&)>& prepare = {});
  // Median GB/s of `shader` (CopyQuads or ReadQuads) over `bytes` of zeros,
  // counting the 16-byte words it reads once.
  [[nodiscard]] double quads_shader_rate(Shader shader, std::uint64_t bytes,
                                         std::uint32_t repetitions);

  const Device& device_;
  GpuLimits limits_;
  GpuTuning tuning_;
  Pipelines pipelines_;
  Buffer staging_;   // pixels as written by the host (absent on unified memory)
  Buffer pixels_;    // pixels as read by the shaders
  Buffer chunks_;    // per-chunk histograms of the chunk strategies; gpu's merge copies
  Buffer result_;    // bins * 4 counters of the batch
  Buffer readback_;  // the result, copied where the host can read it
  Buffer planes_;    // four planes of 16-bit bins (GpuPlan::planes)
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

}  // namespace gpuhist::vk
