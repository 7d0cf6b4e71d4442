// Choosing a device from `--device auto|cpu|INDEX|NAME-SUBSTRING`.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include <vector>

#include <vulkan/vulkan.h>

#include "gpuhist/device_info.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {

class Instance;

// The physical devices that have a compute queue, with their descriptions, in
// enumeration order (DeviceInfo::index keeps the enumeration index).
struct ComputeDevices {
  std::vector<VkPhysicalDevice> physical;
  std::vector<DeviceInfo> info;
};
[[nodiscard]] ComputeDevices compute_devices(const Instance& instance);

// The position in `devices` of the device `spec` names. "auto" prefers a
// discrete, then integrated, then virtual GPU, then a CPU (software) device,
// and gives nullopt when there is none; "cpu" always gives nullopt. An index
// or a case-insensitive name substring that matches nothing throws
// Error(InvalidArgument) listing the devices there are.
[[nodiscard]] std::optional<std::size_t> select_device(std::span<const DeviceInfo> devices,
                                                       std::string_view spec);

// Opens the device `spec` selects (see select_device) among those that can
// serve `request` (present to its surface, when it names one); nullptr when
// it selects none.
// Whether this machine can have a hardware Vulkan device: a GPU device node
// exists (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), or the loader was
// pointed at drivers (VK_DRIVER_FILES, VK_ICD_FILENAMES, VK_ADD_DRIVER_FILES).
// Loads no driver.
[[nodiscard]] bool gpu_device_node_present();

[[nodiscard]] std::unique_ptr<Device> open_device(const Instance& instance, std::string_view spec,
                                                  const DeviceRequest& request = {});

}  // namespace gpuhist::vk
