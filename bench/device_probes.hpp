// What a device can move, measured for the benchmark's report next to the
// strategies' times: copies by the copy engine (device to device, host to
// device) and by compute shaders (copy_quads.comp, read_quads.comp) in
// 16-byte words, timed with GPU timestamps. The read rate is the floor the
// counting kernels, which read every pixel once, are measured against.
#pragma once

#include <cstdint>
#include <functional>

#include <vulkan/vulkan.h>

#include "vulkan/pipelines.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::bench {

class DeviceProbes {
 public:
  explicit DeviceProbes(const vk::Device& device);

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

 private:
  // Median GPU ms of `copy` recorded `repetitions` times, one at a time, in one
  // submission whose dispatches see `src` at binding 0 and `dst` at 1 and 2;
  // `prepare` is recorded once before the first.
  [[nodiscard]] double time_copies(VkBuffer src, VkBuffer dst, std::uint32_t repetitions,
                                   const std::function<void(vk::Submission&)>& copy,
                                   const std::function<void(vk::Submission&)>& prepare = {});
  // Median GB/s of a quads shader over `bytes` of zeros, counting the 16-byte
  // words it reads once.
  [[nodiscard]] double quads_shader_rate(std::span<const std::uint32_t> shader, std::uint64_t bytes,
                                         std::uint32_t repetitions);

  const vk::Device& device_;
  vk::Pipelines pipelines_;
};

// Keeps the GPU's shader cores busy (a compute-shader copy: the copy engine
// alone does not raise their clocks) until about `ms` milliseconds have
// passed, so that clocks have left their idle state before anything is timed.
void warm_up(const vk::Device& device, double ms);

}  // namespace gpuhist::bench
