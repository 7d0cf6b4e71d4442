// The few Vulkan objects every pass builds the same way: shader modules,
// storage-buffer descriptor layouts and sets, pipeline layouts, and one-time
// command buffers submitted and waited for.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

[[nodiscard]] UniqueShaderModule make_shader_module(VkDevice device,
                                                    std::span<const std::uint32_t> spirv);

// Bindings 0..count-1, each one storage buffer, visible to `stages`.
[[nodiscard]] UniqueDescriptorSetLayout make_storage_set_layout(VkDevice device,
                                                                std::uint32_t count,
                                                                VkShaderStageFlags stages);

// One set layout and one push-constant block of `push_bytes`.
[[nodiscard]] UniquePipelineLayout make_pipeline_layout(VkDevice device,
                                                        VkDescriptorSetLayout set_layout,
                                                        std::uint32_t push_bytes,
                                                        VkShaderStageFlags stages);

// A compute pipeline of `module`'s "main", optionally specialised.
[[nodiscard]] UniquePipeline make_compute_pipeline(VkDevice device, VkPipelineLayout layout,
                                                   VkShaderModule module,
                                                   const VkSpecializationInfo* specialization);

// A descriptor set whose bindings 0..n-1 are `buffers`, with the pool that owns it.
struct StorageSet {
  UniqueDescriptorPool pool;
  VkDescriptorSet set = VK_NULL_HANDLE;
};
[[nodiscard]] StorageSet make_storage_set(VkDevice device, VkDescriptorSetLayout layout,
                                          std::span<const VkDescriptorBufferInfo> buffers);

// A primary command buffer from the device's pool, recording from construction,
// freed on destruction.
class OneTimeCommands {
 public:
  // Submits to the device's queue `queue` (see Device::queue).
  explicit OneTimeCommands(const Device& device, bool reusable = false, std::uint32_t queue = 0);
  OneTimeCommands(const OneTimeCommands&) = delete;
  OneTimeCommands& operator=(const OneTimeCommands&) = delete;
  OneTimeCommands(OneTimeCommands&&) = delete;
  OneTimeCommands& operator=(OneTimeCommands&&) = delete;
  ~OneTimeCommands();

  [[nodiscard]] VkCommandBuffer get() const noexcept { return commands_; }
  // Ends recording, submits, and waits (at most 10 minutes). Throws Error(Device)
  // naming `what` on failure, device loss or time-out.
  void submit_and_wait(std::string_view what);
  // The two halves of submit_and_wait: other work may be done between them.
  // submit() ends recording the first time; later calls submit the same
  // commands again (after wait()), when the commands were built `reusable`.
  void submit(std::string_view what);
  // Waits for the commands; with `spin`, first polls the fence for up to that
  // long (a thread woken from a blocking wait on an NVIDIA H200 returned about
  // 10 us after one that polled), then blocks.
  void wait(std::string_view what, std::chrono::nanoseconds spin = {});
  // Whether the submitted commands have finished, without waiting. Throws
  // Error(Device) naming `what` when the device is lost.
  [[nodiscard]] bool done(std::string_view what) const;

 private:
  const Device& device_;
  std::uint32_t queue_ = 0;
  VkFence fence_ = VK_NULL_HANDLE;  // with commands_, taken from the device and given back
  bool submitted_ = false;          // submitted and not yet waited for
  bool ended_ = false;              // recording has ended
  bool ran_ = false;                // submitted at least once (the fence must be reset)
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
};

}  // namespace gpuhist::vk
