// The `gpu` strategies' plans: batches within the device's buffer limits and,
// for the `gpu` strategy, where its counters live and how its workgroups are
// laid out, from the device's limits and the tuning.
#include "count/gpu_plan.hpp"
#include "core/cores.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <thread>

#include "count/gpu_counter.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::count {
namespace {

// Sample indices (pixel * 4 + channel) and per-bin counters stay below 2^32.
constexpr std::uint64_t kMaxBatchPixels = 1ULL << 30;
constexpr std::uint32_t kGroupSize = 256;
// Defaults of the `gpu` strategy on hardware GPUs, from the tuning sweeps on an
// NVIDIA H200 (docs/PERFORMANCE.md): 1024 invocations (or the device's most),
// one private histogram, one workgroup per compute unit, two 16-byte loads in
// flight per invocation, and images of more than 32 Mpixel counted in
// dispatches of 32 Mpixel.
constexpr std::uint32_t kGpuGroupSize = 1024;
constexpr std::uint32_t kGpuCopies = 1;
constexpr std::uint32_t kGpuInvocationsPerUnit = 1024;  // workgroups per unit: this / group size
// Software devices (one "unit" per CPU core) keep smaller workgroups.
constexpr std::uint32_t kSoftwareGroupSize = 512;
constexpr std::uint32_t kGpuUnroll = 2;
constexpr std::uint32_t kGpuSlicePixels = 1U << 25;
// Workgroups add their private histograms to 4 global copies in turn, summed
// at the end: one global counter would take every workgroup's atomic in
// series (on the H200, with 4 workgroups per unit, that was most of the time
// of a 15 MB image); with one workgroup per unit 4 copies measured as fast as
// 16 on large images and faster on small ones.
constexpr std::uint32_t kGpuMergeCopies = 4;
constexpr std::uint32_t kGpuGlobalMergeCopies = 16;
constexpr VkDeviceSize kMaxMergeBytes = VkDeviceSize{64} << 20;
// Up to this many counters in all the merge copies (256 bins x 4 channels x
// 16 copies), the last workgroup to merge sums them itself; larger ones are
// summed by a pass of many workgroups.
constexpr std::uint64_t kMaxLastGroupWords = 16384;
// 16-bit shared counters carry their top four bits to the global histogram,
// so they start each round below 0x1000; in a round between two carries no
// counter may gain more than 0xF000.
constexpr std::uint32_t kHalfCarry = 0xF000;
// Beyond this many ranges of bins per channel, reading the image once per
// range would cost more than counting in global memory.
constexpr std::uint32_t kMaxBinRanges = 16;

std::uint32_t log2_floor(std::uint32_t v) {
  std::uint32_t r = 0;
  while (v > 1) {
    v >>= 1;
    ++r;
  }
  return r;
}

bool has_operation(const DeviceInfo& info, const char* name) {
  return std::find(info.subgroup_operations.begin(), info.subgroup_operations.end(), name) !=
         info.subgroup_operations.end();
}

}  // namespace

std::vector<Batch> plan_batches(std::uint32_t width, std::uint32_t height,
                                std::uint64_t max_pixels) {
  std::vector<Batch> batches;
  if (width <= max_pixels) {
    const auto rows =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(max_pixels / width, height));
    for (std::uint32_t y = 0; y < height; y += rows) {
      const std::uint32_t count = std::min(rows, height - y);
      batches.push_back({y, 0, count * width, width});
    }
    return batches;
  }
  const auto piece = static_cast<std::uint32_t>(max_pixels);
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; x += piece) {
      const std::uint32_t count = std::min(piece, width - x);
      batches.push_back({y, x, count, count});
    }
  }
  return batches;
}

namespace {

// Where the `gpu` strategy's counters live: private copies in shared memory,
// channel groups, 16-bit counters and ranges of bins, or global memory. Needs
// the plan's bins, bytes per pixel and workgroup size.
void plan_counters(GpuPlan& plan, const DeviceInfo& info, const GpuTuning& tuning,
                   const ImageView& image, bool planes_allowed) {
  // Private copies spread a flat image's atomics over more addresses (at
  // most half the shared memory, so that several workgroups fit on one
  // compute unit); on the H200 one copy measured fastest.
  plan.interleave = tuning.experiments.interleave.value_or(false);
  // A histogram too large for shared memory is counted a channel group per
  // workgroup: the pixels are read 2 or 4 times, but counted in shared memory.
  const std::uint32_t pad = plan.interleave ? 0 : 4;
  const auto fits = [&](std::uint32_t split) {
    return plan.histogram_bytes / split + pad <= info.max_shared_memory;
  };
  plan.split = 1;
  if (tuning.split) {
    plan.split = *tuning.split == 4 ? 4U : *tuning.split == 2 ? 2U : 1U;
  } else if (!fits(1)) {
    plan.split = fits(2) ? 2U : 4U;
  }
  if (!fits(plan.split)) plan.split = 1;  // global counters: no reason to split
  // Grey images count luminance only: split, one channel per workgroup, and
  // every workgroup counts it (channel_groups() is 1).
  plan.grey = image.format.layout == ChannelLayout::Grey;
  if (plan.grey && plan.split > 1) plan.split = 4;
  const std::uint64_t copy_bytes = plan.histogram_bytes / plan.split + pad;
  const std::uint64_t fit = info.max_shared_memory / copy_bytes;
  const std::uint64_t wanted = tuning.copies.value_or(
      info.hardware() ? static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
                            info.max_shared_memory / 2 / copy_bytes, 1, kGpuCopies))
                      : 1U);
  plan.copies = static_cast<std::uint32_t>(std::min(wanted, fit));
  if (plan.copies == 0) plan.split = 1;  // global counters take every channel
  // 16-bit counters (one copy) of 4 / split channels and one range of bins.
  const auto halves_fit = [&](std::uint32_t split, std::uint32_t ranges) {
    return std::uint64_t{halves_words(plan.bins, split, ranges)} * 4 <= info.max_shared_memory;
  };
  // One channel too large for shared memory: ranges of bins, one channel per
  // workgroup, the fewest ranges that fit (0: count in global memory). Each
  // range reads the whole image; float pixels, 16 bytes for four samples,
  // stay in global memory (H200, 65536 bins, 1.07 GB: 3.12 / 3.21 / 3.04 ms
  // in ranges against 3.02 / 0.69 / 3.17 ms).
  std::optional<std::uint32_t> ranges = tuning.bin_ranges;
  if (!ranges && !fits(4) && image.format.sample != SampleType::F32) ranges = 1;
  if (ranges && *ranges > 0) {
    std::uint32_t r = *ranges;
    while (r <= kMaxBinRanges && !halves_fit(4, r)) ++r;
    if (r <= kMaxBinRanges) {
      plan.ranges = r;
      plan.split = 4;
      plan.packed = true;
      // Colour pixels: each range reads its channel's plane of bins instead
      // (H200, 65536 bins, RGBA16 1.07 GB: 2.63 / 2.43 / 2.56 ms against
      // 3.88 / 3.55 / 3.65 ms reading the pixels; RGB16 and RGBA8 as much faster).
      plan.planes = planes_allowed && !plan.grey && tuning.planes.value_or(true);
    }
  }
  if (plan.ranges == 1 && tuning.packed.value_or(false)) {
    // The fewest channel groups that fit, unless the tuning names some.
    std::uint32_t split = tuning.split.value_or(1);
    if (!tuning.split) {
      while (split < 4 && !halves_fit(split, 1)) split *= 2;
    }
    if (plan.grey && split > 1) split = 4;
    if ((split == 1 || split == 2 || split == 4) && halves_fit(split, 1)) {
      plan.split = split;
      plan.packed = true;
    }
  }
  if (plan.packed) {
    plan.copies = 1;
    plan.interleave = false;
    // A loop step adds at most group size x pixels per load to one counter.
    plan.group_size = std::min(plan.group_size, kHalfCarry / pixels_per_load(plan.bpp));
  }
}

}  // namespace

GpuPlan plan_gpu(const DeviceInfo& info, const GpuLimits& limits, const GpuTuning& tuning,
                 const ImageView& image, const HistogramOptions& options, Strategy strategy,
                 ChunkShape chunk, bool planes_allowed) {
  GpuPlan plan;
  plan.strategy = strategy;
  plan.bins = options.bins;
  plan.histogram_bytes = VkDeviceSize{options.bins} * 16;
  plan.bpp = pixel_bytes(image.format);
  const std::uint32_t sample_bits = image.format.sample == SampleType::U8    ? 8
                                    : image.format.sample == SampleType::U16 ? 16
                                                                             : 32;
  plan.binning = {{kSpecChannels, channel_count(image.format.layout)},
                  {kSpecSampleBits, sample_bits},
                  {kSpecBins, options.bins},
                  {kSpecLuma601, options.luma == LumaWeights::Rec601 ? 1U : 0U}};
  const std::uint32_t max_group = std::min(info.max_invocations, info.max_workgroup_size[0]);
  plan.group_size = std::min(kGroupSize, max_group);
  const bool fits_shared = plan.histogram_bytes <= info.max_shared_memory;

  if (strategy == Strategy::GpuChunksSum || strategy == Strategy::GpuChunksReduce) {
    plan.chunk_x = chunk == ChunkShape::Tile16x16 ? 16 : 256;
    plan.chunk_y = chunk == ChunkShape::Tile16x16 ? 16 : 1;
    if (plan.chunk_x * plan.chunk_y > info.max_invocations ||
        plan.chunk_x > info.max_workgroup_size[0] || plan.chunk_y > info.max_workgroup_size[1]) {
      throw Error(ErrorKind::InvalidArgument, "chunk " + std::string(to_string(chunk)) +
                                                  " exceeds the workgroup limits of '" + info.name +
                                                  "'");
    }
    plan.chunk_shared = fits_shared;
    // The chunks' histograms of a wave within one storage buffer's range.
    const std::uint64_t wave_bytes =
        std::min<std::uint64_t>(limits.max_wave_bytes, info.max_storage_buffer_range);
    plan.wave_chunks = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(wave_bytes / plan.histogram_bytes, 1,
                                  std::min(info.max_workgroup_count[0], kMaxLoopIterations)));
  }
  if (strategy == Strategy::Gpu) {
    plan.group_size =
        std::clamp(tuning.group_size.value_or(info.hardware() ? kGpuGroupSize : kSoftwareGroupSize),
                   1U, max_group);
    plan_counters(plan, info, tuning, image, planes_allowed);
    plan.copy_shift = tuning.copy_shift.value_or(log2_floor(std::max(1U, info.subgroup_size)));
    const std::uint32_t units = info.compute_units.value_or(info.hardware() ? 64U : core_count());
    // Channel groups each stride over the whole image: twice as many
    // workgroups per group as there are groups (measured on the H200: 4 per
    // unit for two groups against 1, 0.59-0.62 against 0.76 ms on 1 GB).
    // Counting in global memory, 4 per unit keep more atomics in flight (H200,
    // 65536 bins: 5.20 / 0.88 / 6.42 against 5.27 / 0.96 / 6.64 ms with 1).
    // Ranges of bins: 8 per unit (H200, 65536 bins, RGBA16: 3.89 / 3.54 / 3.61 ms
    // against 3.83 / 3.96 / 3.77 with 4 and 3.92 / 4.42 / 3.80 with 2; RGB16
    // and grey16 as fast or faster too).
    const std::uint32_t groups_factor = plan.copies == 0            ? 4U
                                        : plan.ranges > 1           ? 8U
                                        : plan.channel_groups() > 1 ? 2 * plan.channel_groups()
                                                                    : 1U;
    const std::uint32_t per_unit = tuning.groups_per_unit.value_or(
        info.hardware() ? std::max(1U, kGpuInvocationsPerUnit / plan.group_size) * groups_factor
                        : 2U);
    plan.groups_cap = std::clamp(units * per_unit, 1U, info.max_workgroup_count[0]);
    const bool rgba8 = image.format == PixelFormat{ChannelLayout::RGBA, SampleType::U8};
    const bool rgba16 = image.format == PixelFormat{ChannelLayout::RGBA, SampleType::U16};
    // Wide loads: RGBA8, RGBA16 and grey in 16 bytes, RGB8 and RGB16 in three words.
    const bool rgb_or_grey =
        image.format.layout == ChannelLayout::Grey ||
        (image.format.layout == ChannelLayout::RGB && image.format.sample != SampleType::F32);
    plan.wide = (rgba8 || rgba16 || rgb_or_grey || plan.planes) && tuning.wide_loads.value_or(true);
    const bool can_vote = has_operation(info, "vote") && has_operation(info, "ballot");
    plan.uniform_runs = can_vote && tuning.experiments.uniform_runs.value_or(false);
    // Off by default: on the H200 it made flat images 13% faster and photographs 15% slower.
    plan.quad_runs = can_vote && plan.wide && rgba8 && tuning.experiments.quad_runs.value_or(false);
    plan.rows = plan.wide && rgba8 && !plan.planes && plan.group_size % 32 == 0 &&
                tuning.experiments.rows.value_or(false);
    // Off by default: on the H200 it gained at most 6% on photographs with
    // 65536 bins and slowed the other kinds of data.
    plan.global_rounds = can_vote && plan.copies == 0
                             ? std::min(tuning.experiments.global_rounds.value_or(0U), 8U)
                             : 0U;
    plan.unroll = std::clamp(tuning.unroll.value_or(info.hardware() ? kGpuUnroll : 1U), 1U, 4U);
    if (plan.packed) {
      // Rounds in which no 16-bit counter gains more than kHalfCarry.
      const std::uint32_t per_load = plan.wide ? pixels_per_load(plan.count_bpp()) : 1;
      while (plan.unroll > 1 && plan.group_size * per_load * plan.unroll > kHalfCarry) {
        --plan.unroll;
      }
      plan.round_iterations =
          kHalfCarry / (plan.group_size * per_load * (plan.wide ? plan.unroll : 1));
    }
    // Slices start on whole loads (of up to 16 grey8 pixels). Ranges of bins
    // count a whole batch in one dispatch: each dispatch's workgroups add up
    // to a whole histogram each to the global one.
    const std::uint32_t slice = info.hardware() && plan.ranges == 1 ? kGpuSlicePixels : 0U;
    plan.slice_pixels = tuning.slice_pixels.value_or(slice) / 16 * 16;
    // Counting straight into global memory, the copies also spread the
    // counting's own atomics: 16 of them (4 made a flat 16-bit image with
    // 65536 bins 1.8x slower).
    const std::uint32_t merge =
        tuning.merge_copies.value_or(!info.hardware()   ? 1U
                                     : plan.copies == 0 ? kGpuGlobalMergeCopies
                                                        : kGpuMergeCopies);
    plan.merge_copies = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
        std::min<std::uint64_t>(merge, kMaxMergeBytes / plan.histogram_bytes), 1, plan.groups_cap));
    const bool small_sum = std::uint64_t{plan.bins} * 4 * plan.merge_copies <= kMaxLastGroupWords;
    plan.last_group_sums =
        plan.merged() && tuning.last_group_sums.value_or(info.hardware() && small_sum);
  }

  const std::uint64_t batch_bytes =
      limits.max_batch_bytes > 0
          ? limits.max_batch_bytes
          : std::clamp<std::uint64_t>(info.device_local_memory / 8, 256ULL << 20, 1ULL << 30);
  const std::uint64_t byte_limit =
      std::min<std::uint64_t>(batch_bytes, info.max_storage_buffer_range);
  std::uint64_t batch_pixels = std::min(kMaxBatchPixels, byte_limit / plan.bpp);
  // Planes take 8 bytes per pixel, in one buffer.
  if (plan.planes) batch_pixels = std::min(batch_pixels, info.max_storage_buffer_range / 8);
  plan.batches = plan_batches(image.width, image.height, std::max<std::uint64_t>(1, batch_pixels));
  return plan;
}

GpuPlan GpuCounter::make_plan(const ImageView& image, const HistogramOptions& options,
                              Strategy strategy, ChunkShape chunk, bool planes_allowed) const {
  return plan_gpu(device_.info(), limits_, tuning_, image, options, strategy, chunk,
                  planes_allowed);
}

}  // namespace gpuhist::count
