// The benchmark side of GpuCounter: strategies and copies timed on the GPU.
#include <algorithm>
#include <cstring>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/gpu_counter.hpp"
#include "vulkan/submission.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::vk {

Profile GpuCounter::profile(const ImageView& image, const HistogramOptions& options,
                            Strategy strategy, ChunkShape chunk, std::uint32_t repetitions) {
  const GpuPlan plan = make_plan(image, options, strategy, chunk);
  if (plan.batches.size() != 1) {
    throw Error(ErrorKind::InvalidArgument, "image too large to profile in one batch");
  }
  const Batch& batch = plan.batches.front();
  prepare(plan, batch.pixel_count, plan.bpp);
  const bool direct = device_.unified_memory();
  upload(image, batch, direct ? pixels_.mapped() : staging_.mapped());
  if (!direct) {
    Submission copy(device_, pipelines_, bindings(plan));
    copy.copy(staging_.get(), pixels_.get(), batch.pixel_count * plan.bpp);
    copy.submit_and_wait();
  }
  const std::uint32_t runs = std::max(1U, repetitions);
  Timestamps timestamps(device_, 2 * runs);
  const CountersGuard guard(*this);
  Submission submission(device_, pipelines_, bindings(plan));
  submission.reset_queries(timestamps.get(), 2 * runs);
  for (std::uint32_t run = 0; run < runs; ++run) {
    // Each run starts after the previous one has finished.
    submission.barrier();
    submission.timestamp(timestamps.get(), 2 * run);
    // Zeroed counters must land before the shaders add to them.
    if (zero_counters(submission, plan)) submission.barrier();
    record(submission, plan, batch);
    submission.timestamp(timestamps.get(), 2 * run + 1);
  }
  // The last run's counts must be final before they are copied out.
  submission.barrier();
  submission.copy(result_.get(), readback_.get(), plan.histogram_bytes);
  // The copy must be visible to the host after the wait.
  submission.barrier_to_host();
  submission.submit_and_wait();
  counters_settled();
  Profile profile{Histogram(options.bins, is_colour(image.format.layout)),
                  timestamps.intervals_ms()};
  add_readback(plan, profile.histogram);
  return profile;
}

double GpuCounter::time_copies(VkBuffer src, VkBuffer dst, std::uint32_t repetitions,
                               const std::function<void(Submission&)>& copy,
                               const std::function<void(Submission&)>& prepare) {
  const std::uint32_t runs = std::max(1U, repetitions);
  Timestamps timestamps(device_, 2 * runs);
  Submission submission(device_, pipelines_, {src, dst, dst});
  if (prepare) prepare(submission);
  submission.reset_queries(timestamps.get(), 2 * runs);
  for (std::uint32_t run = 0; run < runs; ++run) {
    // Copies are timed one at a time (the first after what `prepare` recorded).
    submission.barrier();
    submission.timestamp(timestamps.get(), 2 * run);
    copy(submission);
    submission.timestamp(timestamps.get(), 2 * run + 1);
  }
  submission.submit_and_wait();
  return median(timestamps.intervals_ms());
}

double GpuCounter::copy_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  const Buffer src(device_, bytes, usage, MemoryUse::DeviceLocal);
  const Buffer dst(device_, bytes, usage, MemoryUse::DeviceLocal);
  const double ms = time_copies(src.get(), dst.get(), repetitions,
                                [&](Submission& s) { s.copy(src.get(), dst.get(), bytes); });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

double GpuCounter::upload_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer src(device_, bytes, usage, MemoryUse::Upload);
  std::memset(src.mapped(), 0x5A, bytes);
  const Buffer dst(device_, bytes, usage, MemoryUse::DeviceLocal);
  const double ms = time_copies(src.get(), dst.get(), repetitions,
                                [&](Submission& s) { s.copy(src.get(), dst.get(), bytes); });
  return static_cast<double>(bytes) / (ms * 1e6);
}

double GpuCounter::quads_shader_rate(Shader shader, std::uint64_t bytes,
                                     std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const std::uint64_t quads = std::max<std::uint64_t>(1, bytes / 16);
  const Buffer src(device_, quads * 16, usage, MemoryUse::DeviceLocal);
  const Buffer dst(device_, quads * 16, usage, MemoryUse::DeviceLocal);
  const VkPipeline pipeline = pipelines_.get(shader, {});
  PushParams params{};
  params.pixel_count = static_cast<std::uint32_t>(std::min<std::uint64_t>(quads, 0xFFFFFFFFULL));
  params.stride = 0x9E3779B9U;  // ReadQuads writes only a fold of the zeros equal to this: never
  // Enough workgroups to fill any GPU; no invocation loops more than kMaxLoopIterations times.
  const std::uint32_t groups =
      std::clamp(ceil_div(quads, 256), ceil_div(quads, 256ULL * kMaxLoopIterations),
                 std::min<std::uint32_t>(device_.info().max_workgroup_count[0], 65535));
  const double ms = time_copies(
      src.get(), dst.get(), repetitions,
      [&](Submission& s) { s.dispatch(pipeline, params, groups); },
      [&](Submission& s) { s.zero(src.get(), quads * 16); });
  return static_cast<double>(quads * 16) / (ms * 1e6);
}

double GpuCounter::shader_copy_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  return 2.0 * quads_shader_rate(Shader::CopyQuads, bytes, repetitions);
}

double GpuCounter::shader_read_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  return quads_shader_rate(Shader::ReadQuads, bytes, repetitions);
}

}  // namespace gpuhist::vk
