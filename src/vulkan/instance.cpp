#include "vulkan/instance.hpp"

#include <utility>

#include "gpuhist/version.hpp"
#include "vulkan/check.hpp"

namespace gpuhist::vk {

std::optional<Instance> Instance::create(std::span<const char* const> extensions) {
  std::uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS ||
      loader_version < VK_API_VERSION_1_2) {
    return std::nullopt;
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "gpuhist";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "gpuhist";
  app.apiVersion = VK_API_VERSION_1_2;

  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult result = vkCreateInstance(&info, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER ||
      (result == VK_ERROR_INITIALIZATION_FAILED && extensions.empty())) {
    return std::nullopt;
  }
  check(result, "creating the Vulkan instance");
  return Instance(instance);
}

Instance::Instance(Instance&& other) noexcept
    : instance_(std::exchange(other.instance_, VK_NULL_HANDLE)) {}

Instance& Instance::operator=(Instance&& other) noexcept {
  if (this != &other) {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
  }
  return *this;
}

Instance::~Instance() {
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

std::vector<VkPhysicalDevice> Instance::physical_devices() const {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "listing Vulkan devices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, devices.data()), "listing Vulkan devices");
  devices.resize(count);
  return devices;
}

}  // namespace gpuhist::vk
