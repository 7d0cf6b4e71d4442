// The variants of the `gpu` strategy's knobs that `--tune` times: one grid
// for 8-bit histograms, one for histograms larger than shared memory with
// four channels, one for 65536 bins.
#pragma once

#include <string>
#include <vector>

#include "gpuhist/device_info.hpp"
#include "vulkan/gpu_counter.hpp"

namespace gpuhist::bench {

// The knobs a tuning variant sets; "auto" for those left to the device's defaults.
[[nodiscard]] std::string describe(const vk::GpuTuning& t);

[[nodiscard]] std::vector<vk::GpuTuning> tuning_grid(const DeviceInfo& info);
[[nodiscard]] std::vector<vk::GpuTuning> large_histogram_grid();
[[nodiscard]] std::vector<vk::GpuTuning> ranged_histogram_grid();

}  // namespace gpuhist::bench
