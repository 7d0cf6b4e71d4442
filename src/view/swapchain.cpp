#include "view/swapchain.hpp"

#include <algorithm>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"
#include "vulkan/graphics.hpp"

namespace gpuhist::view {

VkSurfaceFormatKHR choose_surface_format(VkPhysicalDevice physical, VkSurfaceKHR surface) {
  std::uint32_t count = 0;
  vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nullptr),
            "listing the window's formats");
  std::vector<VkSurfaceFormatKHR> formats(count);
  vk::check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, formats.data()),
            "listing the window's formats");
  if (count == 0) throw Error(ErrorKind::Device, "the window offers no pixel format");
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    for (const VkSurfaceFormatKHR& f : formats) {
      if (f.format == wanted) return f;
    }
  }
  return formats.front();
}

Swapchain::Swapchain(const vk::Device& device, VkSurfaceKHR surface, VkSurfaceFormatKHR format,
                     VkRenderPass pass)
    : device_(device), surface_(surface), format_(format), pass_(pass) {}

Swapchain::~Swapchain() { release(); }

void Swapchain::release() noexcept {
  framebuffers_.clear();
  views_.clear();
  if (swapchain_ != VK_NULL_HANDLE) vkDestroySwapchainKHR(device_.get(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
}

void Swapchain::rebuild(std::uint32_t width, std::uint32_t height) {
  const VkDevice dev = device_.get();
  VkSurfaceCapabilitiesKHR caps{};
  vk::check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device_.physical(), surface_, &caps),
            "reading the window's capabilities");
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == 0xFFFFFFFFU) {
    extent.width = std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height = std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  // Two images in flight plus the one shown.
  std::uint32_t images = std::max(caps.minImageCount, 3U);
  if (caps.maxImageCount != 0) images = std::min(images, caps.maxImageCount);

  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = surface_;
  info.minImageCount = images;
  info.imageFormat = format_.format;
  info.imageColorSpace = format_.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) != 0
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : static_cast<VkCompositeAlphaFlagBitsKHR>(
                                  caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always available; paced by the display
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  vk::check(vkCreateSwapchainKHR(dev, &info, nullptr, &swapchain), "creating the swapchain");
  release();
  swapchain_ = swapchain;
  extent_ = extent;

  std::uint32_t count = 0;
  vk::check(vkGetSwapchainImagesKHR(dev, swapchain_, &count, nullptr), "listing swapchain images");
  std::vector<VkImage> list(count);
  vk::check(vkGetSwapchainImagesKHR(dev, swapchain_, &count, list.data()),
            "listing swapchain images");
  for (VkImage image : list) {
    views_.push_back(vk::make_image_view(dev, image, format_.format));
    framebuffers_.push_back(
        vk::make_framebuffer(dev, pass_, views_.back().get(), extent.width, extent.height));
  }
}

}  // namespace gpuhist::view
