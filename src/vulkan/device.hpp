// A logical Vulkan device with one or two queues of one family and a command pool.
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpuhist/device_info.hpp"
#include "vulkan/handles.hpp"

namespace gpuhist::vk {

// Owns the VkDevice itself; declared first in Device so it is destroyed last.
class LogicalDevice {
 public:
  LogicalDevice() = default;
  explicit LogicalDevice(VkDevice device) noexcept : device_(device) {}
  LogicalDevice(LogicalDevice&& other) noexcept;
  LogicalDevice& operator=(LogicalDevice&& other) noexcept;
  LogicalDevice(const LogicalDevice&) = delete;
  LogicalDevice& operator=(const LogicalDevice&) = delete;
  ~LogicalDevice();
  [[nodiscard]] VkDevice get() const noexcept { return device_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
};

// What a device is opened for beyond computing: device extensions to enable,
// and a surface its queue must be able to present to (a viewer's window).
struct DeviceRequest {
  std::vector<const char*> extensions;
  VkSurfaceKHR present_to = VK_NULL_HANDLE;
};

class Device {
 public:
  // Opens the physical device with one queue that computes (and draws, where a
  // family can do both, and presents to request.present_to when given). Throws
  // Error(Device) when it has no such queue, is older than Vulkan 1.2, or
  // cannot be created.
  Device(VkPhysicalDevice physical, DeviceInfo info, const DeviceRequest& request = {});

  [[nodiscard]] VkDevice get() const noexcept { return device_.get(); }
  [[nodiscard]] VkPhysicalDevice physical() const noexcept { return physical_; }
  [[nodiscard]] const DeviceInfo& info() const noexcept { return info_; }
  // Queue 0 runs everything; a second queue of the same family, where the
  // family has one, lets independent work (frames of a stream) overlap.
  [[nodiscard]] VkQueue queue(std::uint32_t index = 0) const noexcept {
    return queues_[index < queue_count_ ? index : 0];
  }
  [[nodiscard]] std::uint32_t queue_count() const noexcept { return queue_count_; }
  [[nodiscard]] VkCommandPool command_pool() const noexcept { return pool_.get(); }
  [[nodiscard]] const VkPhysicalDeviceMemoryProperties& memory() const noexcept { return memory_; }
  // True when device-local memory can also be mapped on a CPU device or an
  // integrated GPU (a discrete GPU's mappable memory is mappable_local_bytes()).
  [[nodiscard]] bool unified_memory() const noexcept { return unified_memory_; }
  // The size of the largest heap of device-local memory the host can map
  // (on a discrete GPU, the part of its memory behind the PCIe BAR); 0 when none.
  [[nodiscard]] VkDeviceSize mappable_local_bytes() const noexcept { return mappable_local_bytes_; }
  // The alignment of host memory the device can import
  // (VK_EXT_external_memory_host, enabled where offered); 0 when it cannot.
  [[nodiscard]] VkDeviceSize host_import_alignment() const noexcept { return import_alignment_; }
  // A primary command buffer of the pool and an unsignalled fence, kept from
  // an earlier submission where one was given back: drivers take far longer
  // to make them (on an NVIDIA H200 a new pair cost 0.55 ms, reusing one 0.02 ms).
  [[nodiscard]] std::pair<VkCommandBuffer, VkFence> take_commands() const;
  // Gives a pair back once its work is complete: the fence unsignalled, or
  // `signalled` to be reset here. Beyond a few kept, the pair is released.
  void give_back_commands(VkCommandBuffer commands, VkFence fence, bool signalled) const noexcept;

  // vkGetMemoryHostPointerPropertiesEXT; VK_ERROR_FEATURE_NOT_PRESENT without the extension.
  [[nodiscard]] VkResult host_pointer_properties(VkExternalMemoryHandleTypeFlagBits kind,
                                                 const void* pointer,
                                                 VkMemoryHostPointerPropertiesEXT* out) const;

 private:
  LogicalDevice device_;  // destroyed last
  UniqueCommandPool pool_;
  // Pairs given back (their command buffers freed with the pool). The mutex
  // guards the list only: the command pool itself is used, as before, under
  // the callers' serialisation (a Context runs one call on its device at a time).
  mutable std::mutex kept_mutex_;
  mutable std::vector<std::pair<VkCommandBuffer, UniqueFence>> kept_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  VkQueue queues_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  std::uint32_t queue_count_ = 1;
  VkPhysicalDeviceMemoryProperties memory_{};
  bool unified_memory_ = false;
  VkDeviceSize mappable_local_bytes_ = 0;
  VkDeviceSize import_alignment_ = 0;
  PFN_vkGetMemoryHostPointerPropertiesEXT host_pointer_properties_ = nullptr;
};

}  // namespace gpuhist::vk
