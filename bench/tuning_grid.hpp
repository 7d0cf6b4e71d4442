// The variants of the `gpu` strategy's knobs that `--tune` times: one grid
// for 8-bit histograms, one for histograms larger than shared memory with
// four channels, one for 65536 bins.
#pragma once

#include <string>
#include <vector>

#include "count/gpu_counter.hpp"
#include "gpuhist/device_info.hpp"

namespace gpuhist::bench {

// The knobs a tuning variant sets; "auto" for those left to the device's defaults.
[[nodiscard]] std::string describe(const count::GpuTuning& t);

[[nodiscard]] std::vector<count::GpuTuning> tuning_grid(const DeviceInfo& info);
[[nodiscard]] std::vector<count::GpuTuning> large_histogram_grid();
[[nodiscard]] std::vector<count::GpuTuning> ranged_histogram_grid();

}  // namespace gpuhist::bench
