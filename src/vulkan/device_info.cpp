#include "vulkan/device_info.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "vulkan/device_select.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist {

std::string to_string(DeviceType type) {
  switch (type) {
    case DeviceType::DiscreteGpu:
      return "discrete-gpu";
    case DeviceType::IntegratedGpu:
      return "integrated-gpu";
    case DeviceType::VirtualGpu:
      return "virtual-gpu";
    case DeviceType::Cpu:
      return "cpu";
    case DeviceType::Other:
      return "other";
  }
  return "other";
}

std::vector<DeviceInfo> list_devices() {
  const auto instance = vk::Instance::create();
  if (!instance) return {};
  return vk::compute_devices(*instance).info;
}

namespace vk {
namespace {

DeviceType device_type(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return DeviceType::DiscreteGpu;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return DeviceType::IntegratedGpu;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return DeviceType::VirtualGpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return DeviceType::Cpu;
    default:
      return DeviceType::Other;
  }
}

std::string version_text(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

}  // namespace

bool has_extension(VkPhysicalDevice device, const char* name) {
  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

namespace {

std::vector<std::string> subgroup_operation_names(VkSubgroupFeatureFlags flags) {
  static constexpr std::pair<VkSubgroupFeatureFlags, const char*> kNames[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle-relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
  };
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if ((flags & bit) != 0) names.emplace_back(name);
  }
  return names;
}

}  // namespace

namespace {

std::vector<VkQueueFamilyProperties> queue_families(VkPhysicalDevice device) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  families.resize(count);
  return families;
}

constexpr VkQueueFlags kDrawAndCompute = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;

}  // namespace

std::optional<std::uint32_t> compute_queue_family(VkPhysicalDevice device) {
  const auto families = queue_families(device);
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if ((families[i].queueFlags & kDrawAndCompute) == kDrawAndCompute) return i;
  }
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0) return i;
  }
  return std::nullopt;
}

std::optional<std::uint32_t> present_queue_family(VkPhysicalDevice device, VkSurfaceKHR surface) {
  const auto families = queue_families(device);
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    VkBool32 presents = VK_FALSE;
    if ((families[i].queueFlags & kDrawAndCompute) == kDrawAndCompute &&
        vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &presents) == VK_SUCCESS &&
        presents == VK_TRUE) {
      return i;
    }
  }
  return std::nullopt;
}

DeviceInfo describe(VkPhysicalDevice device, std::uint32_t index) {
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  subgroup.pNext = &driver;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv_sm{};
  nv_sm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  VkPhysicalDeviceShaderCorePropertiesAMD amd_core{};
  amd_core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  const bool has_nv_sm = has_extension(device, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  const bool has_amd_core = has_extension(device, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
  // Chain only the structures whose extensions the device reports.
  void** tail = &driver.pNext;
  if (has_nv_sm) {
    *tail = &nv_sm;
    tail = &nv_sm.pNext;
  }
  if (has_amd_core) *tail = &amd_core;

  VkPhysicalDeviceProperties2 props{};
  props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(device, &props);
  const VkPhysicalDeviceLimits& limits = props.properties.limits;

  DeviceInfo info;
  info.index = index;
  info.name = props.properties.deviceName;
  info.type = device_type(props.properties.deviceType);
  info.vendor_id = props.properties.vendorID;
  info.device_id = props.properties.deviceID;
  info.api_version = version_text(props.properties.apiVersion);
  info.driver_name = driver.driverName;
  info.driver_info = driver.driverInfo;
  info.max_invocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) {
    info.max_workgroup_size[static_cast<std::size_t>(i)] = limits.maxComputeWorkGroupSize[i];
    info.max_workgroup_count[static_cast<std::size_t>(i)] = limits.maxComputeWorkGroupCount[i];
  }
  info.max_shared_memory = limits.maxComputeSharedMemorySize;
  info.subgroup_size = subgroup.subgroupSize;
  info.subgroup_operations = subgroup_operation_names(subgroup.supportedOperations);
  info.timestamp_period_ns = static_cast<double>(limits.timestampPeriod);
  info.max_storage_buffer_range = limits.maxStorageBufferRange;
  if (has_nv_sm) info.compute_units = nv_sm.shaderSMCount;
  if (has_amd_core) {
    info.compute_units = amd_core.shaderEngineCount * amd_core.shaderArraysPerEngineCount *
                         amd_core.computeUnitsPerShaderArray;
  }

  if (const auto family = compute_queue_family(device)) {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    info.timestamps = families[*family].timestampValidBits > 0 && limits.timestampPeriod > 0.0f;
  }

  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(device, &memory);
  for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    if ((memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0) {
      info.device_local_memory = std::max(info.device_local_memory, memory.memoryHeaps[i].size);
    }
  }
  return info;
}

}  // namespace vk
}  // namespace gpuhist
