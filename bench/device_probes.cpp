#include "device_probes.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "count/gpu_plan.hpp"
#include "count/shaders.hpp"
#include "shaders/copy_quads_comp_spv.hpp"
#include "shaders/read_quads_comp_spv.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/device.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {

DeviceProbes::DeviceProbes(const vk::Device& device)
    : device_(device), pipelines_(device, sizeof(count::CountParams)) {}

double DeviceProbes::time_copies(VkBuffer src, VkBuffer dst, std::uint32_t repetitions,
                                 const std::function<void(vk::Submission&)>& copy,
                                 const std::function<void(vk::Submission&)>& prepare) {
  const std::uint32_t runs = std::max(1U, repetitions);
  vk::Timestamps timestamps(device_, 2 * runs);
  vk::Submission submission(device_, pipelines_, {src, dst, dst});
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
  return vk::median(timestamps.intervals_ms());
}

double DeviceProbes::copy_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  const vk::Buffer src(device_, bytes, usage, vk::MemoryUse::DeviceLocal);
  const vk::Buffer dst(device_, bytes, usage, vk::MemoryUse::DeviceLocal);
  const double ms = time_copies(src.get(), dst.get(), repetitions,
                                [&](vk::Submission& s) { s.copy(src.get(), dst.get(), bytes); });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

double DeviceProbes::upload_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer src(device_, bytes, usage, vk::MemoryUse::Upload);
  std::memset(src.mapped(), 0x5A, bytes);
  const vk::Buffer dst(device_, bytes, usage, vk::MemoryUse::DeviceLocal);
  const double ms = time_copies(src.get(), dst.get(), repetitions,
                                [&](vk::Submission& s) { s.copy(src.get(), dst.get(), bytes); });
  return static_cast<double>(bytes) / (ms * 1e6);
}

double DeviceProbes::quads_shader_rate(std::span<const std::uint32_t> shader, std::uint64_t bytes,
                                       std::uint32_t repetitions) {
  constexpr VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const std::uint64_t quads = std::max<std::uint64_t>(1, bytes / 16);
  const vk::Buffer src(device_, quads * 16, usage, vk::MemoryUse::DeviceLocal);
  const vk::Buffer dst(device_, quads * 16, usage, vk::MemoryUse::DeviceLocal);
  const VkPipeline pipeline = pipelines_.get(shader, {});
  count::CountParams params{};
  params.pixel_count = static_cast<std::uint32_t>(std::min<std::uint64_t>(quads, 0xFFFFFFFFULL));
  params.stride = 0x9E3779B9U;  // ReadQuads writes only a fold of the zeros equal to this: never
  // Enough workgroups to fill any GPU; no invocation loops more than kMaxLoopIterations times.
  const std::uint32_t groups = std::clamp(
      count::ceil_div(quads, 256), count::ceil_div(quads, 256ULL * count::kMaxLoopIterations),
      std::min<std::uint32_t>(device_.info().max_workgroup_count[0], 65535));
  const double ms = time_copies(
      src.get(), dst.get(), repetitions,
      [&](vk::Submission& s) { s.dispatch(pipeline, params, groups); },
      [&](vk::Submission& s) { s.zero(src.get(), quads * 16); });
  return static_cast<double>(quads * 16) / (ms * 1e6);
}

double DeviceProbes::shader_copy_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  return 2.0 * quads_shader_rate(spirv::copy_quads_comp, bytes, repetitions);
}

double DeviceProbes::shader_read_rate(std::uint64_t bytes, std::uint32_t repetitions) {
  return quads_shader_rate(spirv::read_quads_comp, bytes, repetitions);
}

void warm_up(const vk::Device& device, double ms) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::optional<DeviceProbes> probes;
  while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < ms) {
    if (!probes) probes.emplace(device);
    // Many copies per call: each call allocates its two buffers.
    (void)probes->shader_copy_rate(256ULL << 20, 200);
  }
}

}  // namespace gpuhist::bench
