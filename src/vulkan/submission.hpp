// One command buffer recorded and submitted: copies, fills, dispatches and the
// barriers between them, then a blocking wait for completion.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/builders.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {

class Device;

class Submission {
 public:
  // Begins recording; every dispatch sees `buffers` at bindings 0, 1, 2.
  // `reusable` commands may be submitted again after each wait(); they go to
  // the device's queue `queue`.
  Submission(const Device& device, const Pipelines& pipelines,
             const std::array<VkBuffer, kBufferBindings>& buffers, bool reusable = false,
             std::uint32_t queue = 0);
  Submission(const Submission&) = delete;
  Submission& operator=(const Submission&) = delete;
  Submission(Submission&&) = delete;
  Submission& operator=(Submission&&) = delete;
  ~Submission() = default;

  // Later dispatches see `buffers` at bindings 0, 1, 2 instead.
  void bind(const std::array<VkBuffer, kBufferBindings>& buffers);
  void copy(VkBuffer src, VkBuffer dst, VkDeviceSize size);
  void copy(VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions);
  void zero(VkBuffer buffer, VkDeviceSize size);
  // Dispatches with `params` as the push constants: the C++ mirror of the
  // shader's push-constant block.
  template <class Params>
  void dispatch(VkPipeline pipeline, const Params& params, std::uint32_t groups_x,
                std::uint32_t groups_y = 1) {
    static_assert(std::is_trivially_copyable_v<Params> && sizeof(Params) % 4 == 0);
    dispatch_bytes(pipeline, &params, sizeof(Params), groups_x, groups_y);
  }
  // `bytes` of push constants at `params`, at most the pipelines' push_bytes().
  void dispatch_bytes(VkPipeline pipeline, const void* params, std::uint32_t bytes,
                      std::uint32_t groups_x, std::uint32_t groups_y = 1);
  // Makes earlier transfer and shader writes visible to later transfers and shaders.
  void barrier();
  // Makes earlier writes visible to the host after the wait.
  void barrier_to_host();
  // Resets `count` queries of a timestamp pool (before writing them).
  void reset_queries(VkQueryPool pool, std::uint32_t count);
  // Writes a timestamp once all earlier commands have completed.
  void timestamp(VkQueryPool pool, std::uint32_t index);
  // Ends recording, submits, and waits. Throws Error(Device) on failure or device loss.
  void submit_and_wait();
  // The two halves of submit_and_wait, for several submissions in flight.
  void submit();
  // Polls for up to `spin` before blocking (OneTimeCommands::wait).
  void wait(std::chrono::nanoseconds spin = {});

 private:
  const Device& device_;
  const Pipelines& pipelines_;
  std::vector<StorageSet> sets_;  // outlive the commands that use them
  OneTimeCommands commands_;
};

}  // namespace gpuhist::vk
