// Reading a physical device's identity and compute limits into DeviceInfo.
#pragma once

#include <optional>

#include <vulkan/vulkan.h>

#include "gpuhist/device_info.hpp"

namespace gpuhist::vk {

// The queue family used for compute: the first that also draws (graphics),
// else the first that computes; nullopt when none computes.
[[nodiscard]] std::optional<std::uint32_t> compute_queue_family(VkPhysicalDevice device);
// The first family that computes, draws and presents to `surface`, if any.
[[nodiscard]] std::optional<std::uint32_t> present_queue_family(VkPhysicalDevice device,
                                                                VkSurfaceKHR surface);

// Whether the device offers the device extension `name`.
[[nodiscard]] bool has_extension(VkPhysicalDevice device, const char* name);

// Everything `gpuhist devices` prints about one device.
[[nodiscard]] DeviceInfo describe(VkPhysicalDevice device, std::uint32_t index);

}  // namespace gpuhist::vk
