#include "vulkan/gpu_counter.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::vk {
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
// Software drivers cap the iterations of a shader loop, nested loops counted
// together (Mesa llvmpipe stops after 65535): grids, spans and waves are sized
// so that no invocation loops more than this many times.
constexpr std::uint32_t kMaxLoopIterations = 8192;
// 16-bit shared counters carry 0x8000 to the global histogram; between two
// barriers no counter may gain more than that.
constexpr std::uint32_t kHalfCarry = 0x8000;
// Beyond this many ranges of bins per channel, reading the image once per
// range would cost more than counting in global memory.
constexpr std::uint32_t kMaxBinRanges = 16;

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>((a + b - 1) / b);
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

GpuCounter::GpuCounter(const Device& device, GpuLimits limits)
    : device_(device), limits_(limits), pipelines_(device) {}

const DeviceInfo& GpuCounter::device_info() const noexcept { return device_.info(); }

namespace {

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

void GpuCounter::upload(const ImageView& image, const Batch& batch, void* destination) const {
  const std::size_t bpp = pixel_bytes(image.format);
  auto* out = static_cast<std::byte*>(destination);
  if (batch.x0 != 0 || batch.width != image.width) {
    std::memcpy(out, image.row(batch.y0) + batch.x0 * bpp, std::size_t{batch.pixel_count} * bpp);
    return;
  }
  const std::size_t row_bytes = std::size_t{image.width} * bpp;
  const std::uint32_t rows = batch.pixel_count / image.width;
  if (image.stride == row_bytes) {
    std::memcpy(out, image.row(batch.y0), row_bytes * rows);
    return;
  }
  for (std::uint32_t r = 0; r < rows; ++r) {
    std::memcpy(out + r * row_bytes, image.row(batch.y0 + r), row_bytes);
  }
}

// Where the `gpu` strategy's counters live: private copies in shared memory,
// channel groups, 16-bit counters and ranges of bins, or global memory.
void GpuCounter::plan_counters(GpuPlan& plan, const ImageView& image) const {
  const DeviceInfo& info = device_.info();
  // Private copies spread a flat image's atomics over more addresses (at
  // most half the shared memory, so that several workgroups fit on one
  // compute unit); on the H200 one copy measured fastest.
  plan.interleave = tuning_.interleave.value_or(false);
  // A histogram too large for shared memory is counted a channel group per
  // workgroup: the pixels are read 2 or 4 times, but counted in shared memory.
  const std::uint32_t pad = plan.interleave ? 0 : 4;
  const auto fits = [&](std::uint32_t split) {
    return plan.histogram_bytes / split + pad <= info.max_shared_memory;
  };
  plan.split = 1;
  if (tuning_.split) {
    plan.split = *tuning_.split == 4 ? 4U : *tuning_.split == 2 ? 2U : 1U;
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
  const std::uint64_t wanted = tuning_.copies.value_or(
      info.hardware() ? static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
                            info.max_shared_memory / 2 / copy_bytes, 1, kGpuCopies))
                      : 1U);
  plan.copies = static_cast<std::uint32_t>(std::min(wanted, fit));
  if (plan.copies == 0) plan.split = 1;  // global counters take every channel
  // 16-bit counters (one copy) of 4 / split channels and one range of bins.
  const auto halves_fit = [&](std::uint32_t split, std::uint32_t ranges) {
    const std::uint64_t counters = std::uint64_t{4 / split} * ceil_div(plan.bins, ranges);
    return (counters + 1) / 2 * 4 <= info.max_shared_memory;
  };
  // One channel too large for shared memory: ranges of bins, one channel per
  // workgroup, the fewest ranges that fit (0: count in global memory). Each
  // range reads the whole image; float pixels, 16 bytes for four samples,
  // stay in global memory (H200, 65536 bins, 1.07 GB: 3.12 / 3.21 / 3.04 ms
  // in ranges against 3.02 / 0.69 / 3.17 ms).
  std::optional<std::uint32_t> ranges = tuning_.bin_ranges;
  if (!ranges && !fits(4) && image.format.sample != SampleType::F32) ranges = 1;
  if (ranges && *ranges > 0) {
    std::uint32_t r = *ranges;
    while (r <= kMaxBinRanges && !halves_fit(4, r)) ++r;
    if (r <= kMaxBinRanges) {
      plan.ranges = r;
      plan.split = 4;
      plan.packed = true;
    }
  }
  if (plan.ranges == 1 && tuning_.packed.value_or(false)) {
    // The fewest channel groups that fit, unless the tuning names some.
    std::uint32_t split = tuning_.split.value_or(1);
    if (!tuning_.split) {
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

GpuPlan GpuCounter::make_plan(const ImageView& image, const HistogramOptions& options,
                              Strategy strategy, ChunkShape chunk) const {
  const DeviceInfo& info = device_.info();
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
    plan.wave_chunks = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(limits_.max_wave_bytes / plan.histogram_bytes, 1,
                                  std::min(info.max_workgroup_count[0], kMaxLoopIterations)));
  }
  if (strategy == Strategy::Gpu) {
    plan.group_size = std::clamp(
        tuning_.group_size.value_or(info.hardware() ? kGpuGroupSize : kSoftwareGroupSize), 1U,
        max_group);
    plan_counters(plan, image);
    plan.copy_shift = tuning_.copy_shift.value_or(log2_floor(std::max(1U, info.subgroup_size)));
    const std::uint32_t units = info.compute_units.value_or(
        info.hardware() ? 64U : std::max(1U, std::thread::hardware_concurrency()));
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
    const std::uint32_t per_unit = tuning_.groups_per_unit.value_or(
        info.hardware() ? std::max(1U, kGpuInvocationsPerUnit / plan.group_size) * groups_factor
                        : 2U);
    plan.groups_cap = std::clamp(units * per_unit, 1U, info.max_workgroup_count[0]);
    const bool rgba8 = image.format == PixelFormat{ChannelLayout::RGBA, SampleType::U8};
    const bool rgba16 = image.format == PixelFormat{ChannelLayout::RGBA, SampleType::U16};
    // Wide loads: RGBA8, RGBA16 and grey in 16 bytes, RGB8 and RGB16 in three words.
    const bool rgb_or_grey =
        image.format.layout == ChannelLayout::Grey ||
        (image.format.layout == ChannelLayout::RGB && image.format.sample != SampleType::F32);
    plan.wide = (rgba8 || rgba16 || rgb_or_grey) && tuning_.wide_loads.value_or(true);
    const bool can_vote = has_operation(info, "vote") && has_operation(info, "ballot");
    plan.uniform_runs = can_vote && tuning_.uniform_runs.value_or(false);
    // Off by default: on the H200 it made flat images 13% faster and photographs 15% slower.
    plan.quad_runs = can_vote && plan.wide && rgba8 && tuning_.quad_runs.value_or(false);
    // Off by default: on the H200 it gained at most 6% on photographs with
    // 65536 bins and slowed the other kinds of data.
    plan.global_rounds =
        can_vote && plan.copies == 0 ? std::min(tuning_.global_rounds.value_or(0U), 8U) : 0U;
    plan.unroll = std::clamp(tuning_.unroll.value_or(info.hardware() ? kGpuUnroll : 1U), 1U, 4U);
    if (plan.packed) {
      // Rounds in which no 16-bit counter gains more than 0x8000.
      const std::uint32_t per_load = plan.wide ? pixels_per_load(plan.bpp) : 1;
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
    plan.slice_pixels = tuning_.slice_pixels.value_or(slice) / 16 * 16;
    // Counting straight into global memory, the copies also spread the
    // counting's own atomics: 16 of them (4 made a flat 16-bit image with
    // 65536 bins 1.8x slower).
    const std::uint32_t merge =
        tuning_.merge_copies.value_or(!info.hardware()   ? 1U
                                      : plan.copies == 0 ? kGpuGlobalMergeCopies
                                                         : kGpuMergeCopies);
    plan.merge_copies = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(
        std::min<std::uint64_t>(merge, kMaxMergeBytes / plan.histogram_bytes), 1, plan.groups_cap));
    const bool small_sum = std::uint64_t{plan.bins} * 4 * plan.merge_copies <= kMaxLastGroupWords;
    plan.last_group_sums =
        plan.merged() && tuning_.last_group_sums.value_or(info.hardware() && small_sum);
  }

  const std::uint64_t byte_limit =
      std::min<std::uint64_t>(limits_.max_batch_bytes, info.max_storage_buffer_range);
  plan.batches =
      plan_batches(image.width, image.height,
                   std::max<std::uint64_t>(1, std::min(kMaxBatchPixels, byte_limit / plan.bpp)));
  return plan;
}

void GpuCounter::prepare(const GpuPlan& plan, std::uint64_t largest_batch_pixels,
                         std::uint64_t bpp) {
  constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  constexpr VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  constexpr VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const bool direct = device_.unified_memory();
  // 16 bytes more than the pixels: the shaders may read whole 16-byte quads.
  const VkDeviceSize pixel_bytes = largest_batch_pixels * bpp + 16;
  ensure_buffer(pixels_, device_, pixel_bytes, storage | dst | src,
                direct ? MemoryUse::Mappable : MemoryUse::DeviceLocal);
  if (!direct) ensure_buffer(staging_, device_, pixel_bytes, src, MemoryUse::Upload);
  ensure_buffer(result_, device_, plan.histogram_bytes, storage | dst | src,
                MemoryUse::DeviceLocal);
  ensure_buffer(readback_, device_, plan.histogram_bytes, dst, MemoryUse::Readback);
  if (plan.strategy == Strategy::GpuChunksSum || plan.strategy == Strategy::GpuChunksReduce) {
    ensure_buffer(chunks_, device_, plan.histogram_bytes * plan.wave_chunks, storage | dst,
                  MemoryUse::DeviceLocal);
    clean_copy_bytes_ = 0;  // chunk histograms are left in it
  }
  if (plan.merged() &&
      ensure_buffer(chunks_, device_, plan.copies_bytes(), storage | dst, MemoryUse::DeviceLocal)) {
    clean_copy_bytes_ = 0;
  }
}

bool GpuCounter::zero_counters(Submission& submission, const GpuPlan& plan) {
  // The merge pass writes the whole result.
  if (!plan.merged()) {
    submission.zero(result_.get(), plan.histogram_bytes);
    return true;
  }
  const VkDeviceSize copy_bytes = plan.copies_bytes();
  const bool dirty = clean_copy_bytes_ < copy_bytes;
  if (dirty) submission.zero(chunks_.get(), copy_bytes);
  clean_copy_bytes_ = std::max(clean_copy_bytes_, copy_bytes);
  copies_pending_ = true;
  return dirty;
}

std::array<VkBuffer, kBufferBindings> GpuCounter::bindings(const GpuPlan& plan) const {
  const bool chunked = plan.strategy == Strategy::GpuChunksSum ||
                       plan.strategy == Strategy::GpuChunksReduce || plan.merged();
  return {pixels_.get(), chunked ? chunks_.get() : result_.get(), result_.get()};
}

void GpuCounter::add_readback(const GpuPlan& plan, Histogram& out) const {
  add_counts(plan, readback_, out);
}

void GpuCounter::add_counts(const GpuPlan& plan, const Buffer& readback, Histogram& out) {
  const auto* counts = static_cast<const std::uint32_t*>(readback.mapped());
  for (Channel channel : out.channels()) {
    auto dst = out.counts(channel);
    const auto c = static_cast<std::size_t>(channel);
    for (std::size_t bin = 0; bin < plan.bins; ++bin) dst[bin] += counts[bin * 4 + c];
  }
}

Histogram GpuCounter::count(const ImageView& image, const HistogramOptions& options,
                            Strategy strategy, ChunkShape chunk) {
  const GpuPlan plan = make_plan(image, options, strategy, chunk);
  std::uint64_t largest = 0;
  for (const Batch& b : plan.batches) largest = std::max<std::uint64_t>(largest, b.pixel_count);
  prepare(plan, largest, plan.bpp);
  const bool direct = device_.unified_memory();

  Histogram out(options.bins, is_colour(image.format.layout));
  const CountersGuard guard(*this);
  for (const Batch& batch : plan.batches) {
    upload(image, batch, direct ? pixels_.mapped() : staging_.mapped());
    Submission submission(device_, pipelines_, bindings(plan));
    if (!direct) submission.copy(staging_.get(), pixels_.get(), batch.pixel_count * plan.bpp);
    (void)zero_counters(submission, plan);
    // The uploaded pixels and the zeroed counters must land before any shader reads them.
    submission.barrier();
    record(submission, plan, batch);
    // Every shader's counts must be final before they are copied out.
    submission.barrier();
    submission.copy(result_.get(), readback_.get(), plan.histogram_bytes);
    // The copy must be complete and visible before the host reads it after the wait.
    submission.barrier_to_host();
    submission.submit_and_wait();
    counters_settled();
    add_readback(plan, out);
  }
  return out;
}

void GpuCounter::record(Submission& submission, const GpuPlan& plan, const Batch& batch) {
  PushParams params{};
  params.pixel_count = batch.pixel_count;
  params.width = batch.width;
  const std::uint32_t max_groups = device_.info().max_workgroup_count[0];
  std::vector<SpecConstant> constants = plan.binning;
  switch (plan.strategy) {
    case Strategy::GpuSingle: {
      // One invocation walks everything; on a software device it walks in
      // spans, one dispatch after another.
      const VkPipeline single = pipelines_.get(Shader::HistSingle, constants);
      const std::uint32_t span = device_.info().hardware() ? batch.pixel_count : kMaxLoopIterations;
      for (std::uint32_t first = 0; first < batch.pixel_count; first += span) {
        params.first = first;
        params.pixel_count = std::min(batch.pixel_count, first + span);
        submission.dispatch(single, params, 1);
        // Each span adds to counters the previous span wrote without atomics.
        submission.barrier();
      }
      return;
    }
    case Strategy::GpuAtomic:
      constants.push_back({kSpecLocalX, plan.group_size});
      submission.dispatch(pipelines_.get(Shader::HistAtomic, constants), params,
                          std::min(ceil_div(batch.pixel_count, plan.group_size), max_groups));
      // max_groups * 256 * kMaxLoopIterations is far above the batch limit of 2^30 pixels.
      return;
    case Strategy::Gpu: {
      const std::uint32_t shared_words =
          plan.packed ? (4 / plan.split * ceil_div(plan.bins, plan.ranges) + 1) / 2
          : plan.copies == 0
              ? 1U
              : plan.copies * (plan.bins * 4 / plan.split + (plan.interleave ? 0 : 1));
      constants.push_back({kSpecSharedWords, shared_words});
      constants.push_back({kSpecCopies, plan.copies});
      constants.push_back({kSpecCopyShift, plan.copy_shift});
      constants.push_back({kSpecWide, plan.wide ? 1U : 0U});
      constants.push_back({kSpecInterleave, plan.interleave ? 1U : 0U});
      constants.push_back({kSpecLocalX, plan.group_size});
      constants.push_back({kSpecUnroll, plan.unroll});
      constants.push_back({kSpecMergeCopies, plan.merge_copies});
      constants.push_back({kSpecSplit, plan.split});
      constants.push_back({kSpecHalves, plan.packed ? 1U : 0U});
      constants.push_back({kSpecRanges, plan.ranges});
      constants.push_back({kSpecRoundIters, std::max(1U, plan.round_iterations)});
      constants.push_back({kSpecFinish, plan.last_group_sums ? 1U : 0U});
      constants.push_back({kSpecQuadRuns, plan.quad_runs ? 1U : 0U});
      constants.push_back({kSpecVoteRuns, plan.uniform_runs ? 1U : 0U});
      constants.push_back({kSpecGlobalRounds, plan.global_rounds});
      const std::uint32_t per_invocation = plan.wide ? pixels_per_load(plan.bpp) * plan.unroll : 1;
      const bool subgroup = plan.uniform_runs || plan.quad_runs || plan.global_rounds > 0;
      const VkPipeline pipeline = pipelines_.get(
          subgroup ? Shader::HistPrivatizedSubgroup : Shader::HistPrivatized, constants);
      const std::uint32_t slice = plan.slice_pixels == 0 ? batch.pixel_count : plan.slice_pixels;
      // Workgroups of each slice's dispatch: per channel group, times the
      // groups; every channel group strides over the slice.
      std::vector<std::uint32_t> dispatches;
      for (std::uint32_t first = 0; first < batch.pixel_count; first += slice) {
        const std::uint32_t count = std::min(batch.pixel_count - first, slice);
        const std::uint32_t needed =
            ceil_div(count, std::uint64_t{plan.group_size} * per_invocation);
        const std::uint32_t fewest = ceil_div(needed, kMaxLoopIterations);
        const std::uint32_t groups = std::max(
            std::min(needed, std::max(1U, plan.groups_cap / plan.channel_groups())), fewest);
        dispatches.push_back(groups * plan.channel_groups());
        params.group_count += groups * plan.channel_groups();
      }
      // Slices add to the same counters with atomics: no barrier between them.
      for (std::size_t k = 0; k < dispatches.size(); ++k) {
        params.first = static_cast<std::uint32_t>(k) * slice;
        params.pixel_count = std::min(batch.pixel_count - params.first, slice) + params.first;
        submission.dispatch(pipeline, params, dispatches[k]);
      }
      if (plan.merged() && !plan.last_group_sums) {
        // Every workgroup's merge must be done before the copies are added up.
        submission.barrier();
        params.chunk_count = plan.merge_copies;
        submission.dispatch(pipelines_.get(Shader::MergeCopies, {{{kSpecBins, plan.bins}}}), params,
                            ceil_div(std::uint64_t{plan.bins} * 4, 256));
      }
      return;
    }
    case Strategy::GpuChunksSum:
    case Strategy::GpuChunksReduce:
      record_chunks(submission, plan, batch);
      return;
    case Strategy::CpuReference:
    case Strategy::Cpu:
      break;
  }
  throw Error(ErrorKind::InvalidArgument,
              "strategy " + std::string(to_string(plan.strategy)) + " does not run on a GPU");
}

void GpuCounter::record_chunks(Submission& submission, const GpuPlan& plan, const Batch& batch) {
  std::vector<SpecConstant> count_constants = plan.binning;
  count_constants.push_back({kSpecSharedWords, plan.chunk_shared ? plan.bins * 4 : 1U});
  count_constants.push_back({kSpecUseShared, plan.chunk_shared ? 1U : 0U});
  count_constants.push_back({kSpecLocalX, plan.chunk_x});
  count_constants.push_back({kSpecLocalY, plan.chunk_y});
  const VkPipeline count = pipelines_.get(Shader::HistChunks, count_constants);
  const std::vector<SpecConstant> bins_only = {{kSpecBins, plan.bins}};
  const VkPipeline sum = pipelines_.get(Shader::ChunksSum, bins_only);
  const VkPipeline reduce = plan.strategy == Strategy::GpuChunksReduce
                                ? pipelines_.get(Shader::ChunksReduce, bins_only)
                                : VK_NULL_HANDLE;

  const std::uint32_t rows = ceil_div(batch.pixel_count, batch.width);
  const std::uint64_t total =
      std::uint64_t{ceil_div(batch.width, plan.chunk_x)} * ceil_div(rows, plan.chunk_y);
  PushParams params{};
  params.pixel_count = batch.pixel_count;
  params.width = batch.width;
  for (std::uint64_t base = 0; base < total; base += plan.wave_chunks) {
    const auto chunks =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(plan.wave_chunks, total - base));
    params.chunk_base = static_cast<std::uint32_t>(base);
    params.chunk_count = chunks;
    if (!plan.chunk_shared) {
      submission.zero(chunks_.get(), plan.histogram_bytes * chunks);
      // Chunks counted with global atomics need zeroed slots first.
      submission.barrier();
    }
    submission.dispatch(count, params, chunks);
    // Chunk histograms must be complete before they are added up.
    submission.barrier();
    const std::uint32_t counter_groups = ceil_div(std::uint64_t{plan.bins} * 4, 256);
    if (reduce == VK_NULL_HANDLE) {
      submission.dispatch(sum, params, counter_groups);
    } else {
      for (std::uint32_t stride = 1; stride < chunks; stride *= 2) {
        params.stride = stride;
        submission.dispatch(reduce, params, counter_groups,
                            ceil_div(chunks - stride, 2ULL * stride));
        // The next pass reads what this pass wrote.
        submission.barrier();
      }
      params.chunk_count = 1;
      submission.dispatch(sum, params, counter_groups);
    }
    // The next wave overwrites the chunk slots this wave's sum reads.
    submission.barrier();
  }
}

}  // namespace gpuhist::vk
