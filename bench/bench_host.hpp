// One image in host memory to counts on the host (`--e2e`): what a caller of
// the library times. Each way of reaching the device (count::Upload) from
// ordinary pageable memory and from page-aligned memory, next to the bus time
// of the same bytes and the cpu strategy, all in one run.
#pragma once

#include "bench_runner.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::bench {

// Counts with a counter of the library's default limits on `device` (none:
// the cpu strategy only).
void run_host(const Config& config, const vk::Device* device, Report& report);

}  // namespace gpuhist::bench
