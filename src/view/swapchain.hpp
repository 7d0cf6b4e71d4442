// The window's swapchain: its images, their views and framebuffers for one
// render pass, rebuilt at a new size when the window changes.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::view {

// The colour format to present in: 8-bit UNORM BGRA or RGBA where the surface
// offers one (the overlay's bytes shown unchanged), else its first format.
[[nodiscard]] VkSurfaceFormatKHR choose_surface_format(VkPhysicalDevice physical,
                                                       VkSurfaceKHR surface);

class Swapchain {
 public:
  Swapchain(const vk::Device& device, VkSurfaceKHR surface, VkSurfaceFormatKHR format,
            VkRenderPass pass);
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;
  Swapchain(Swapchain&&) = delete;
  Swapchain& operator=(Swapchain&&) = delete;
  ~Swapchain();

  // (Re)builds the swapchain for a drawable area of width x height (the surface's
  // own extent where it dictates one). The device must be idle.
  void rebuild(std::uint32_t width, std::uint32_t height);

  [[nodiscard]] VkSwapchainKHR get() const noexcept { return swapchain_; }
  [[nodiscard]] VkExtent2D extent() const noexcept { return extent_; }
  [[nodiscard]] std::uint32_t image_count() const noexcept {
    return static_cast<std::uint32_t>(framebuffers_.size());
  }
  [[nodiscard]] VkFramebuffer framebuffer(std::uint32_t image) const {
    return framebuffers_[image].get();
  }

 private:
  void release() noexcept;

  const vk::Device& device_;
  VkSurfaceKHR surface_;
  VkSurfaceFormatKHR format_;
  VkRenderPass pass_;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  std::vector<vk::UniqueImageView> views_;
  std::vector<vk::UniqueFramebuffer> framebuffers_;
};

}  // namespace gpuhist::view
