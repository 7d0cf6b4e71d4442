#include "vulkan/check.hpp"

#include <string>

#include "gpuhist/error.hpp"

namespace gpuhist::vk {

std::string_view result_name(VkResult result) noexcept {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_INCOMPLETE:
      return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default:
      return "unknown VkResult";
  }
}

namespace {
std::string_view explain(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "GPU out of memory";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "host out of memory";
    case VK_ERROR_DEVICE_LOST:
      return "the GPU device was lost";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "no compatible Vulkan driver";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "Vulkan initialisation failed";
    default:
      return "Vulkan call failed";
  }
}
}  // namespace

void check(VkResult result, std::string_view what) {
  if (result == VK_SUCCESS) return;
  throw Error(ErrorKind::Device, std::string(what) + ": " + std::string(result_name(result)) +
                                     " (" + std::string(explain(result)) + ")");
}

}  // namespace gpuhist::vk
