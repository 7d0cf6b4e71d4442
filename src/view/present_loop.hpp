// Drawing one frame into the window: wait for the previous frame, rebuild the
// swapchain when the window changed size, acquire an image, record, submit and
// present. One frame is drawn on the device at a time, so the caller may
// rewrite what the previous frame read once draw() has begun.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::view {

class Swapchain;

class PresentLoop {
 public:
  using Record = std::function<void(VkCommandBuffer, VkFramebuffer, VkExtent2D)>;

  PresentLoop(const vk::Device& device, Swapchain& swapchain);
  PresentLoop(const PresentLoop&) = delete;
  PresentLoop& operator=(const PresentLoop&) = delete;
  PresentLoop(PresentLoop&&) = delete;
  PresentLoop& operator=(PresentLoop&&) = delete;
  ~PresentLoop();  // waits for the device to finish

  // Draws one frame for a drawable area of width x height through `record`;
  // false when the swapchain had to be rebuilt first and nothing was shown.
  // Throws Error(Device) on device failure.
  bool draw(std::uint32_t width, std::uint32_t height, const Record& record);

 private:
  void rebuild(std::uint32_t width, std::uint32_t height);

  const vk::Device& device_;
  Swapchain& swapchain_;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  vk::UniqueFence done_;                    // the last submitted frame has finished
  vk::UniqueSemaphore acquired_;            // the acquired image may be drawn
  std::vector<vk::UniqueSemaphore> drawn_;  // per swapchain image: it may be presented
  bool stale_ = true;
  std::uint32_t built_width_ = 0, built_height_ = 0;
};

}  // namespace gpuhist::view
