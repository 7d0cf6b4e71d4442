#include "count/gpu_counter.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "core/stream_copy.hpp"
#include "count/host_upload.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/device.hpp"
#include "vulkan/host_import.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::count {

GpuCounter::GpuCounter(const vk::Device& device, GpuLimits limits)
    : device_(device), limits_(limits), pipelines_(device, sizeof(CountParams)) {}

const DeviceInfo& GpuCounter::device_info() const noexcept { return device_.info(); }

void GpuCounter::upload(const ImageView& image, const Batch& batch, void* destination,
                        bool stream) const {
  const std::size_t bpp = pixel_bytes(image.format);
  auto* out = static_cast<std::byte*>(destination);
  const auto copy = [stream](void* to, const void* from, std::size_t bytes) {
    if (stream) {
      stream_copy(to, from, bytes);
    } else {
      std::memcpy(to, from, bytes);
    }
  };
  if (batch.x0 != 0 || batch.width != image.width) {
    copy(out, image.row(batch.y0) + batch.x0 * bpp, std::size_t{batch.pixel_count} * bpp);
    return;
  }
  const std::size_t row_bytes = std::size_t{image.width} * bpp;
  const std::uint32_t rows = batch.pixel_count / image.width;
  if (image.stride == row_bytes) {
    copy(out, image.row(batch.y0), row_bytes * rows);
    return;
  }
  for (std::uint32_t r = 0; r < rows; ++r) {
    copy(out + r * row_bytes, image.row(batch.y0 + r), row_bytes);
  }
}

void GpuCounter::prepare(const GpuPlan& plan, std::uint64_t largest_batch_pixels, std::uint64_t bpp,
                         std::optional<bool> staging, std::optional<bool> mapped,
                         std::uint64_t staging_bytes) {
  constexpr VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  constexpr VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  constexpr VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const bool unified = device_.unified_memory();
  const bool want_mapped = mapped.value_or(unified);
  // 16 bytes more than the pixels: the shaders may read whole 16-byte quads.
  const VkDeviceSize pixel_bytes = largest_batch_pixels * bpp + 16;
  // A discrete GPU's mappable memory may be a small heap that others use
  // too: where it had no room, memory the host does not map, and staging.
  const bool try_mapped = want_mapped && (unified || pixel_bytes < mappable_refused_);
  // Mapped memory large enough serves as device-local memory too: kept, so
  // that calls alternating between the two do not reallocate.
  const bool keep = pixels_mapped_ && pixels_.size() >= pixel_bytes;
  if (try_mapped != pixels_mapped_ && !keep) pixels_ = vk::Buffer();
  pixels_mapped_ = keep;
  if (!keep && try_mapped) {
    try {
      vk::ensure_buffer(pixels_, device_, pixel_bytes, storage | dst | src,
                        vk::MemoryUse::Mappable);
      pixels_mapped_ = true;
    } catch (const Error&) {
      if (unified) throw;  // no other memory to fall back to
      pixels_ = vk::Buffer();
      mappable_refused_ = pixel_bytes;
    }
  }
  if (!pixels_mapped_) {
    vk::ensure_buffer(pixels_, device_, pixel_bytes, storage | dst | src,
                      vk::MemoryUse::DeviceLocal);
  }
  if (staging.value_or(!unified) || (want_mapped && !pixels_mapped_)) {
    // Host-cached where offered: the host writes it faster (the device reads it as fast).
    vk::ensure_buffer(staging_, device_, staging_bytes > 0 ? staging_bytes + 16 : pixel_bytes, src,
                      vk::MemoryUse::Readback);
  }
  vk::ensure_buffer(result_, device_, plan.histogram_bytes, storage | dst | src,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(readback_, device_, plan.histogram_bytes, dst, vk::MemoryUse::Readback);
  if (plan.planes) {
    // Four planes of whole 16-byte quads, 8 bins each.
    vk::ensure_buffer(planes_, device_, 4 * ceil_div(largest_batch_pixels, 8) * 16, storage,
                      vk::MemoryUse::DeviceLocal);
  }
  if (plan.strategy == Strategy::GpuChunksSum || plan.strategy == Strategy::GpuChunksReduce) {
    vk::ensure_buffer(chunks_, device_, plan.histogram_bytes * plan.wave_chunks, storage | dst,
                      vk::MemoryUse::DeviceLocal);
    clean_copy_bytes_ = 0;  // chunk histograms are left in it
  }
  if (plan.merged() && vk::ensure_buffer(chunks_, device_, plan.copies_bytes(), storage | dst,
                                         vk::MemoryUse::DeviceLocal)) {
    clean_copy_bytes_ = 0;
  }
}

bool GpuCounter::zero_counters(vk::Submission& submission, const GpuPlan& plan) {
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

std::array<VkBuffer, vk::kBufferBindings> GpuCounter::bindings(const GpuPlan& plan) const {
  const bool chunked = plan.strategy == Strategy::GpuChunksSum ||
                       plan.strategy == Strategy::GpuChunksReduce || plan.merged();
  return {pixels_.get(), chunked ? chunks_.get() : result_.get(), result_.get()};
}

void GpuCounter::add_readback(const GpuPlan& plan, Histogram& out) const {
  add_counts(plan, readback_, out);
}

void GpuCounter::add_counts(const GpuPlan& plan, const vk::Buffer& readback, Histogram& out) {
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
  const UploadWay way = choose_upload(upload_, device_.unified_memory(),
                                      device_.mappable_local_bytes(), largest * plan.bpp);
  std::optional<vk::HostImport> imported;
  // Importing pins the pages on every call: on an NVIDIA H200 that cost more
  // than the parts' copy at every size (docs/PERFORMANCE.md), so only when asked.
  if (way.path == Upload::Import) {
    const std::size_t span =
        (image.height - 1) * image.stride + std::size_t{image.width} * plan.bpp;
    imported = vk::HostImport::create(device_, image.data, span);
  }
  const bool staged = way.path == Upload::Staged;
  // A whole batch in the mapped pixel buffer where it could be allocated;
  // otherwise, as for an import refused, parts through staging.
  prepare(plan, largest, plan.bpp, way.path != Upload::Mapped && !imported,
          way.path == Upload::Mapped || way.mapped_sixteenths > 0,
          staged ? 0 : ring_bytes(image, plan, way.ring_parts));
  const bool in_place = way.path == Upload::Mapped && pixels_mapped_;
  const bool parts = !in_place && !imported && !staged;
  const std::uint32_t share = pixels_mapped_ ? way.mapped_sixteenths : 0;

  Histogram out(options.bins, is_colour(image.format.layout));
  const CountersGuard guard(*this);
  for (const Batch& batch : plan.batches) {
    // An upload in parts's copies, submitted before `submission` and kept
    // until it is done (declared first: destroyed, and waited for, last).
    std::vector<std::unique_ptr<vk::OneTimeCommands>> copies;
    vk::Submission submission(device_, pipelines_, bindings(plan));
    // Everything the device does with the batch but the copies of parts,
    // recorded and submitted.
    const auto submit = [&] {
      (void)zero_counters(submission, plan);
      if (in_place) {
        write_batch(image, batch, pixels_.mapped());
      } else if (imported) {
        submission.copy(imported->get(), pixels_.get(),
                        import_regions(image, batch, plan.bpp, imported->offset()));
      } else if (staged) {
        write_batch(image, batch, staging_.mapped());
        submission.copy(staging_.get(), pixels_.get(), batch.pixel_count * plan.bpp);
      }
      // The uploaded pixels (for Parts, the copies submitted before this) and
      // the zeroed counters must land before any shader reads them.
      submission.barrier();
      record(submission, plan, batch);
      // Every shader's counts must be final before they are copied out.
      submission.barrier();
      submission.copy(result_.get(), readback_.get(), plan.histogram_bytes);
      // The copy must be complete and visible before the host reads it after the wait.
      submission.barrier_to_host();
      submission.submit();
    };
    if (parts) {
      upload_parts(image, batch, plan_parts(image, batch, way.ring_parts), share, way.ring_parts,
                   submit, copies);
    } else {
      submit();
    }
    submission.wait(device_.info().hardware() ? std::chrono::microseconds(upload_.spin_us)
                                              : std::chrono::microseconds(0));
    counters_settled();
    add_readback(plan, out);
  }
  return out;
}

void GpuCounter::record(vk::Submission& submission, const GpuPlan& plan, const Batch& batch) {
  CountParams params{};
  params.pixel_count = batch.pixel_count;
  params.width = batch.width;
  const std::uint32_t max_groups = device_.info().max_workgroup_count[0];
  std::vector<vk::SpecConstant> constants = plan.binning;
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
      const std::array<VkBuffer, vk::kBufferBindings> buffers = bindings(plan);
      if (plan.planes) record_planes(submission, batch, buffers, params, constants);
      const std::uint32_t shared_words =
          plan.packed ? halves_words(plan.bins, plan.split, plan.ranges)
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
      constants.push_back({kSpecPlanes, plan.planes ? 1U : 0U});
      constants.push_back({kSpecFinish, plan.last_group_sums ? 1U : 0U});
      constants.push_back({kSpecQuadRuns, plan.quad_runs ? 1U : 0U});
      constants.push_back({kSpecVoteRuns, plan.uniform_runs ? 1U : 0U});
      constants.push_back({kSpecGlobalRounds, plan.global_rounds});
      constants.push_back({kSpecRows, plan.rows ? 1U : 0U});
      const std::uint32_t per_invocation =
          plan.wide ? pixels_per_load(plan.count_bpp()) * plan.unroll : 1;
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
      if (plan.planes) submission.bind(buffers);
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

void GpuCounter::record_planes(vk::Submission& submission, const Batch& batch,
                               const std::array<VkBuffer, vk::kBufferBindings>& buffers,
                               CountParams& params, std::vector<vk::SpecConstant>& constants) {
  // Every pixel's bins into the four planes (binding 1)...
  submission.bind({buffers[0], planes_.get(), buffers[2]});
  params.stride = ceil_div(batch.pixel_count, 8);  // 16-byte quads per plane
  const std::uint32_t pairs = ceil_div(batch.pixel_count, 2);
  submission.dispatch(pipelines_.get(Shader::SplitPlanes, constants), params,
                      std::min(ceil_div(pairs, 256), device_.info().max_workgroup_count[0]));
  // The planes must be written before the count reads them.
  submission.barrier();
  // ...which the count reads where it reads pixels, as one 16-bit channel each.
  submission.bind({planes_.get(), buffers[1], buffers[2]});
  for (vk::SpecConstant& c : constants) {
    if (c.id == kSpecChannels) c.value = 1;
    if (c.id == kSpecSampleBits) c.value = 16;
  }
}

void GpuCounter::record_chunks(vk::Submission& submission, const GpuPlan& plan,
                               const Batch& batch) {
  std::vector<vk::SpecConstant> count_constants = plan.binning;
  count_constants.push_back({kSpecSharedWords, plan.chunk_shared ? plan.bins * 4 : 1U});
  count_constants.push_back({kSpecUseShared, plan.chunk_shared ? 1U : 0U});
  count_constants.push_back({kSpecLocalX, plan.chunk_x});
  count_constants.push_back({kSpecLocalY, plan.chunk_y});
  const VkPipeline count = pipelines_.get(Shader::HistChunks, count_constants);
  const std::vector<vk::SpecConstant> bins_only = {{kSpecBins, plan.bins}};
  const VkPipeline sum = pipelines_.get(Shader::ChunksSum, bins_only);
  const VkPipeline reduce = plan.strategy == Strategy::GpuChunksReduce
                                ? pipelines_.get(Shader::ChunksReduce, bins_only)
                                : VK_NULL_HANDLE;

  const std::uint32_t rows = ceil_div(batch.pixel_count, batch.width);
  const std::uint64_t total =
      std::uint64_t{ceil_div(batch.width, plan.chunk_x)} * ceil_div(rows, plan.chunk_y);
  CountParams params{};
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

}  // namespace gpuhist::count
