// The Vulkan instance: created once per Context, destroyed last.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

namespace gpuhist::vk {

class Instance {
 public:
  // A Vulkan 1.2 instance, or nullopt when no loader driver can provide one
  // (no Vulkan on this machine is not an error until a GPU is asked for).
  // `extensions` are instance extensions to enable (a window system's surface
  // extensions); creation fails with Error(Device) when one is missing.
  static std::optional<Instance> create(std::span<const char* const> extensions = {});

  Instance(Instance&& other) noexcept;
  Instance& operator=(Instance&& other) noexcept;
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  ~Instance();

  [[nodiscard]] VkInstance get() const noexcept { return instance_; }
  // Every physical device, in the loader's order (the order device indices use).
  [[nodiscard]] std::vector<VkPhysicalDevice> physical_devices() const;

 private:
  explicit Instance(VkInstance instance) noexcept : instance_(instance) {}
  VkInstance instance_ = VK_NULL_HANDLE;
};

}  // namespace gpuhist::vk
