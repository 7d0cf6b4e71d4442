// A Context whose device draws to a window: the viewer (src/view) opens the
// engine this way, and presents what the context counts, adjusts and draws.
#pragma once

#include <functional>
#include <span>
#include <string_view>

#include <vulkan/vulkan.h>

#include "gpuhist/context.hpp"
#include "vulkan/device.hpp"

namespace gpuhist {

// What the engine's own parts reach inside a Context.
struct ContextAccess {
  // Opens an instance with `instance_extensions` (the window system's), the
  // window's surface with `make_surface`, and the device `spec` picks (as
  // Context::open) among those that can present to it, with the swapchain
  // extension; the context counts on that device. Throws Error(Device) when
  // Vulkan, or a device that can draw to the window, is missing,
  // Error(InvalidArgument) for `spec` "cpu" or one that names no device.
  static Context open_for_window(std::string_view spec,
                                 std::span<const char* const> instance_extensions,
                                 const std::function<VkSurfaceKHR(VkInstance)>& make_surface);
  // The context's device and window surface (open_for_window's).
  static const vk::Device& device(const Context& context);
  static VkSurfaceKHR surface(const Context& context);
};

}  // namespace gpuhist
