// The host-memory stream of the benchmark: frames counted with several in flight.
#pragma once

#include "bench_runner.hpp"
#include "count/gpu_counter.hpp"

namespace gpuhist::bench {

// Frames of the photograph (random pixels without one) in host memory, counted
// with several in flight: read in place, copied to the device first, and
// copied by the host into their slot before each submission (as
// FrameStream::push does).
void run_stream(const Config& config, count::GpuCounter& counter, Report& report);

}  // namespace gpuhist::bench
