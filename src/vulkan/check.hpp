// Turning VkResult failures into gpuhist::Error(Device) with a readable cause.
#pragma once

#include <string_view>

#include <vulkan/vulkan.h>

namespace gpuhist::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and friends.
[[nodiscard]] std::string_view result_name(VkResult result) noexcept;

// Throws Error(Device, "<what>: <result name> (<explanation>)") unless result is VK_SUCCESS.
void check(VkResult result, std::string_view what);

}  // namespace gpuhist::vk
