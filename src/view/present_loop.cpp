#include "view/present_loop.hpp"

#include "gpuhist/error.hpp"
#include "view/swapchain.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::view {
namespace {

constexpr std::uint64_t kWaitNs = 10ULL * 1000 * 1000 * 1000;

vk::UniqueSemaphore make_semaphore(VkDevice device) {
  VkSemaphoreCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  vk::check(vkCreateSemaphore(device, &info, nullptr, &semaphore), "creating a semaphore");
  return vk::UniqueSemaphore(device, semaphore);
}

}  // namespace

PresentLoop::PresentLoop(const vk::Device& device, Swapchain& swapchain)
    : device_(device), swapchain_(swapchain) {
  const VkDevice dev = device.get();
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = device.command_pool();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  vk::check(vkAllocateCommandBuffers(dev, &alloc, &commands_), "allocating a command buffer");
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // no frame is in flight yet
  VkFence fence = VK_NULL_HANDLE;
  vk::check(vkCreateFence(dev, &fence_info, nullptr, &fence), "creating a fence");
  done_ = vk::UniqueFence(dev, fence);
  acquired_ = make_semaphore(dev);
}

PresentLoop::~PresentLoop() {
  vkDeviceWaitIdle(device_.get());
  vkFreeCommandBuffers(device_.get(), device_.command_pool(), 1, &commands_);
}

void PresentLoop::rebuild(std::uint32_t width, std::uint32_t height) {
  vk::check(vkDeviceWaitIdle(device_.get()), "waiting for the device");
  swapchain_.rebuild(width, height);
  drawn_.clear();
  for (std::uint32_t i = 0; i < swapchain_.image_count(); ++i) {
    drawn_.push_back(make_semaphore(device_.get()));
  }
  // A fresh semaphore: a failed acquire may have left the old one pending.
  acquired_ = make_semaphore(device_.get());
  built_width_ = width;
  built_height_ = height;
  stale_ = false;
}

bool PresentLoop::draw(std::uint32_t width, std::uint32_t height, const Record& record) {
  const VkDevice dev = device_.get();
  VkFence fence = done_.get();
  vk::check(vkWaitForFences(dev, 1, &fence, VK_TRUE, kWaitNs), "waiting for the last frame");
  if (stale_ || width != built_width_ || height != built_height_) rebuild(width, height);

  std::uint32_t image = 0;
  const VkResult acquired = vkAcquireNextImageKHR(dev, swapchain_.get(), kWaitNs, acquired_.get(),
                                                  VK_NULL_HANDLE, &image);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    stale_ = true;
    return false;
  }
  if (acquired != VK_SUBOPTIMAL_KHR) vk::check(acquired, "acquiring a window image");

  vk::check(vkResetFences(dev, 1, &fence), "resetting a fence");
  vk::check(vkResetCommandBuffer(commands_, 0), "recording commands");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk::check(vkBeginCommandBuffer(commands_, &begin), "recording commands");
  record(commands_, swapchain_.framebuffer(image), swapchain_.extent());
  vk::check(vkEndCommandBuffer(commands_), "recording commands");

  const VkSemaphore wait = acquired_.get();
  const VkSemaphore signal = drawn_[image].get();
  // The image is written by the render pass only once the presentation engine has let it go.
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &wait;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &signal;
  vk::check(vkQueueSubmit(device_.queue(), 1, &submit, fence), "submitting a frame");

  const VkSwapchainKHR swapchain = swapchain_.get();
  VkPresentInfoKHR present{};
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &signal;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &image;
  const VkResult presented = vkQueuePresentKHR(device_.queue(), &present);
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) {
    stale_ = true;
  } else {
    vk::check(presented, "showing a frame");
  }
  return true;
}

}  // namespace gpuhist::view
