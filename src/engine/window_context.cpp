#include "engine/window_context.hpp"

#include <memory>
#include <string>

#include "count/gpu_counter.hpp"
#include "engine/context_impl.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist {

Context ContextAccess::open_for_window(
    std::string_view spec, std::span<const char* const> instance_extensions,
    const std::function<VkSurfaceKHR(VkInstance)>& make_surface) {
  if (spec == "cpu") {
    throw Error(ErrorKind::InvalidArgument,
                "the viewer draws with Vulkan: it cannot run on the CPU device");
  }
  auto impl = std::make_unique<Context::Impl>();
  impl->instance = vk::Instance::create(instance_extensions);
  if (!impl->instance) throw Error(ErrorKind::Device, "Vulkan is not available on this machine");
  impl->surface.instance = impl->instance->get();
  impl->surface.surface = make_surface(impl->instance->get());
  vk::DeviceRequest request;
  request.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  request.present_to = impl->surface.surface;
  impl->device = vk::open_device(*impl->instance, spec, request);
  if (!impl->device) throw Error(ErrorKind::Device, "no Vulkan device can draw to the window");
  impl->counter = std::make_unique<count::GpuCounter>(*impl->device);
  return Context(std::move(impl));
}

const vk::Device& ContextAccess::device(const Context& context) {
  return context.impl().drawing_device("the window");
}

VkSurfaceKHR ContextAccess::surface(const Context& context) {
  return context.impl().surface.surface;
}

}  // namespace gpuhist
