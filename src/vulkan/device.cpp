#include "vulkan/device.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device_info.hpp"

namespace gpuhist::vk {

LogicalDevice::LogicalDevice(LogicalDevice&& other) noexcept
    : device_(std::exchange(other.device_, VK_NULL_HANDLE)) {}

LogicalDevice& LogicalDevice::operator=(LogicalDevice&& other) noexcept {
  if (this != &other) {
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
  }
  return *this;
}

LogicalDevice::~LogicalDevice() {
  if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
}

Device::Device(VkPhysicalDevice physical, DeviceInfo info, const DeviceRequest& request)
    : physical_(physical), info_(std::move(info)) {
  VkPhysicalDeviceProperties props{};
  vkGetPhysicalDeviceProperties(physical, &props);
  if (props.apiVersion < VK_API_VERSION_1_2) {
    throw Error(ErrorKind::Device, "device '" + info_.name + "' supports only Vulkan " +
                                       info_.api_version + "; gpuhist needs 1.2");
  }
  const auto family = request.present_to != VK_NULL_HANDLE
                          ? present_queue_family(physical, request.present_to)
                          : compute_queue_family(physical);
  if (!family) {
    throw Error(ErrorKind::Device,
                "device '" + info_.name + "' has no compute queue" +
                    (request.present_to != VK_NULL_HANDLE ? " that can draw to the window" : ""));
  }

  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
  queue_count_ = std::clamp(families[*family].queueCount, 1U, 2U);
  const float priorities[2] = {1.0f, 1.0f};
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = *family;
  queue_info.queueCount = queue_count_;
  queue_info.pQueuePriorities = priorities;
  // Host memory import, where offered: counts read the caller's pixels in place.
  std::vector<const char*> extensions = request.extensions;
  const bool import = has_extension(physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (import) extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  device_info.ppEnabledExtensionNames = extensions.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &device_info, nullptr, &device),
        "opening device '" + info_.name + "'");
  device_ = LogicalDevice(device);
  for (std::uint32_t i = 0; i < queue_count_; ++i)
    vkGetDeviceQueue(device, *family, i, &queues_[i]);

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = *family;
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "creating a command pool");
  pool_ = UniqueCommandPool(device, pool);

  if (import) {
    host_pointer_properties_ = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        vkGetDeviceProcAddr(device, "vkGetMemoryHostPointerPropertiesEXT"));
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host{};
    host.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &host;
    vkGetPhysicalDeviceProperties2(physical, &properties);
    if (host_pointer_properties_ != nullptr)
      import_alignment_ = host.minImportedHostPointerAlignment;
  }

  vkGetPhysicalDeviceMemoryProperties(physical, &memory_);
  constexpr VkMemoryPropertyFlags kMappable = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                              VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const bool integrated = info_.type == DeviceType::Cpu || info_.type == DeviceType::IntegratedGpu;
  for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((memory_.memoryTypes[i].propertyFlags & kMappable) != kMappable) continue;
    if (integrated) unified_memory_ = true;
    mappable_local_bytes_ =
        std::max(mappable_local_bytes_, memory_.memoryHeaps[memory_.memoryTypes[i].heapIndex].size);
  }
}

std::pair<VkCommandBuffer, VkFence> Device::take_commands() const {
  {
    const std::lock_guard lock(kept_mutex_);
    if (!kept_.empty()) {
      const VkCommandBuffer commands = kept_.back().first;
      const VkFence fence = kept_.back().second.get();
      // The fence's ownership passes to the caller, without destroying it.
      (void)std::move(kept_.back().second).release();
      kept_.pop_back();
      return {commands, fence};
    }
  }
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(device_.get(), &fence_info, nullptr, &fence), "creating a fence");
  UniqueFence owned(device_.get(), fence);
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = pool_.get();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device_.get(), &alloc, &commands), "allocating a command buffer");
  return {commands, std::move(owned).release()};
}

void Device::give_back_commands(VkCommandBuffer commands, VkFence fence,
                                bool signalled) const noexcept {
  // An upload in parts has up to 32 copies in flight besides its count.
  constexpr std::size_t kKept = 40;
  UniqueFence owned(device_.get(), fence);
  // A command buffer given back while still recording (an error before its
  // submission) could not begin again without a reset.
  if (vkResetCommandBuffer(commands, 0) != VK_SUCCESS ||
      (signalled && vkResetFences(device_.get(), 1, &fence) != VK_SUCCESS)) {
    vkFreeCommandBuffers(device_.get(), pool_.get(), 1, &commands);
    return;
  }
  const std::lock_guard lock(kept_mutex_);
  if (kept_.size() >= kKept) {
    vkFreeCommandBuffers(device_.get(), pool_.get(), 1, &commands);
    return;  // the fence is destroyed with `owned`
  }
  try {
    kept_.emplace_back(commands, std::move(owned));
  } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory: released instead of kept
    vkFreeCommandBuffers(device_.get(), pool_.get(), 1, &commands);
  }
}

VkResult Device::host_pointer_properties(VkExternalMemoryHandleTypeFlagBits kind,
                                         const void* pointer,
                                         VkMemoryHostPointerPropertiesEXT* out) const {
  if (host_pointer_properties_ == nullptr) return VK_ERROR_FEATURE_NOT_PRESENT;
  return host_pointer_properties_(device_.get(), kind, pointer, out);
}

}  // namespace gpuhist::vk
