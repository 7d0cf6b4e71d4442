#include "vulkan/device_select.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "core/shown_text.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/device_info.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist::vk {
namespace {

int preference(DeviceType type) {
  switch (type) {
    case DeviceType::DiscreteGpu:
      return 0;
    case DeviceType::IntegratedGpu:
      return 1;
    case DeviceType::VirtualGpu:
      return 2;
    case DeviceType::Cpu:
      return 3;
    case DeviceType::Other:
      return 4;
  }
  return 5;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string available(std::span<const DeviceInfo> devices) {
  if (devices.empty()) return "no Vulkan device is available";
  std::string text = "available: ";
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(devices[i].index) + " '" + devices[i].name + "'";
  }
  return text;
}

}  // namespace

std::optional<std::size_t> select_device(std::span<const DeviceInfo> devices,
                                         std::string_view spec) {
  if (spec == "cpu") return std::nullopt;
  if (spec == "auto" || spec.empty()) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (!best || preference(devices[i].type) < preference(devices[*best].type)) best = i;
    }
    return best;
  }
  // Digits, with a minus sign or too many for an index too: an index, of a
  // device or of none.
  const std::string_view digits = spec.substr(spec[0] == '-' ? 1 : 0);
  if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
    unsigned index = 0;
    const auto [end, error] = std::from_chars(spec.data(), spec.data() + spec.size(), index);
    const bool parsed = error == std::errc{} && end == spec.data() + spec.size();
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (parsed && devices[i].index == index) return i;
    }
    throw Error(
        devices.empty() ? ErrorKind::Device : ErrorKind::InvalidArgument,
        "no Vulkan device with index " + shown_text(spec) + " (" + available(devices) + ")");
  }
  // A name of spaces alone would match every name that has a space.
  if (spec.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos) {
    throw Error(ErrorKind::InvalidArgument,
                "a device is named by part of its name, its index, 'cpu' or 'auto', not by "
                "spaces alone");
  }
  const std::string needle = lower(spec);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (lower(devices[i].name).find(needle) != std::string::npos) return i;
  }
  // None at all is the machine's lack (3 on the command line), a name that matches none of
  // several a usage error (2).
  throw Error(devices.empty() ? ErrorKind::Device : ErrorKind::InvalidArgument,
              "no Vulkan device matches '" + shown_text(spec) + "' (" + available(devices) + ")");
}

ComputeDevices compute_devices(const Instance& instance) {
  ComputeDevices out;
  const auto physical = instance.physical_devices();
  for (std::uint32_t i = 0; i < physical.size(); ++i) {
    if (!compute_queue_family(physical[i])) continue;
    out.physical.push_back(physical[i]);
    out.info.push_back(describe(physical[i], i));
  }
  return out;
}

std::unique_ptr<Device> open_device(const Instance& instance, std::string_view spec,
                                    const DeviceRequest& request) {
  ComputeDevices devices = compute_devices(instance);
  if (request.present_to != VK_NULL_HANDLE) {
    ComputeDevices able;
    for (std::size_t i = 0; i < devices.physical.size(); ++i) {
      if (present_queue_family(devices.physical[i], request.present_to)) {
        able.physical.push_back(devices.physical[i]);
        able.info.push_back(std::move(devices.info[i]));
      }
    }
    devices = std::move(able);
  }
  const auto chosen = select_device(devices.info, spec);
  if (!chosen) return nullptr;
  return std::make_unique<Device>(devices.physical[*chosen], devices.info[*chosen], request);
}

namespace {

bool any_entry_starting(const char* folder, std::string_view prefix) {
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().filename().string().starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

bool gpu_device_node_present() {
  for (const char* variable : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_ADD_DRIVER_FILES"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return true;
  }
  std::error_code error;
  return any_entry_starting("/dev/dri", "renderD") || any_entry_starting("/dev", "nvidia") ||
         std::filesystem::exists("/dev/dxg", error);
}

}  // namespace gpuhist::vk
