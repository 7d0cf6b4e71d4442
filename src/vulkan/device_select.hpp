// Choosing a device from `--device auto|cpu|INDEX|NAME-SUBSTRING`.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "gpuhist/device_info.hpp"

namespace gpuhist::vk {

// The position in `devices` of the device `spec` names. "auto" prefers a
// discrete, then integrated, then virtual GPU, then a CPU (software) device,
// and gives nullopt when there is none; "cpu" always gives nullopt. An index
// or a case-insensitive name substring that matches nothing throws
// Error(InvalidArgument) listing the devices there are.
[[nodiscard]] std::optional<std::size_t> select_device(std::span<const DeviceInfo> devices,
                                                       std::string_view spec);

}  // namespace gpuhist::vk
