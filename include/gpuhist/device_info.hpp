// What gpuhist knows about a Vulkan device: identity and the compute limits
// that decide workgroup sizes and shared-memory layouts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuhist {

enum class DeviceType : std::uint8_t { Other, IntegratedGpu, DiscreteGpu, VirtualGpu, Cpu };

// "discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu", "other".
[[nodiscard]] std::string to_string(DeviceType type);

struct DeviceInfo {
  std::uint32_t index = 0;  // position in the Vulkan enumeration
  std::string name{};
  DeviceType type = DeviceType::Other;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::string api_version;  // "1.3.239"
  std::string driver_name;  // e.g. "llvmpipe", "NVIDIA"
  std::string driver_info;  // driver version text

  // Compute limits.
  std::uint32_t max_invocations = 0;
  std::array<std::uint32_t, 3> max_workgroup_size{};
  std::array<std::uint32_t, 3> max_workgroup_count{};
  std::uint32_t max_shared_memory = 0;  // bytes per workgroup
  std::uint32_t subgroup_size = 0;
  std::vector<std::string> subgroup_operations;  // "basic", "vote", "arithmetic", ...
  bool timestamps = false;                       // timestamp queries on the compute queue
  double timestamp_period_ns = 0.0;
  std::uint64_t max_storage_buffer_range = 0;
  std::uint64_t device_local_memory = 0;       // bytes in the largest device-local heap
  std::optional<std::uint32_t> compute_units;  // SMs / CUs where an extension reports them

  // True for a real GPU (discrete, integrated or virtual), false for a software device.
  [[nodiscard]] bool hardware() const noexcept {
    return type == DeviceType::DiscreteGpu || type == DeviceType::IntegratedGpu ||
           type == DeviceType::VirtualGpu;
  }
};

// Every Vulkan device with compute support. Empty when no Vulkan loader or
// driver is present; never throws for a missing Vulkan.
[[nodiscard]] std::vector<DeviceInfo> list_devices();

}  // namespace gpuhist
