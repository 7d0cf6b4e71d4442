// Reading a physical device's identity and compute limits into DeviceInfo.
#pragma once

#include <optional>

#include <vulkan/vulkan.h>

#include "gpuhist/device_info.hpp"

namespace gpuhist::vk {

// The queue family used for compute (the first with VK_QUEUE_COMPUTE_BIT), if any.
[[nodiscard]] std::optional<std::uint32_t> compute_queue_family(VkPhysicalDevice device);

// Everything `gpuhist devices` prints about one device.
[[nodiscard]] DeviceInfo describe(VkPhysicalDevice device, std::uint32_t index);

}  // namespace gpuhist::vk
