// A logical Vulkan device with one compute queue and a command pool.
#pragma once

#include <cstdint>
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
  [[nodiscard]] VkQueue queue() const noexcept { return queue_; }
  [[nodiscard]] VkCommandPool command_pool() const noexcept { return pool_.get(); }
  [[nodiscard]] const VkPhysicalDeviceMemoryProperties& memory() const noexcept { return memory_; }
  // True when device-local memory can also be mapped (CPU devices, integrated GPUs).
  [[nodiscard]] bool unified_memory() const noexcept { return unified_memory_; }

 private:
  LogicalDevice device_;  // destroyed last
  UniqueCommandPool pool_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  bool unified_memory_ = false;
};

}  // namespace gpuhist::vk
