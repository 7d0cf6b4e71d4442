// The benchmark's adjustments: each adjustment of a frame (count, tables,
// apply) timed on the wall clock, with the tables applied on the GPU and on
// the CPU, whose bytes must agree.
#pragma once

#include "bench_runner.hpp"

namespace gpuhist::bench {

// Frames of the photograph (random pixels without one), RGB8 as decoded video
// frames are, adjusted by every kind but matching. Opens its own context.
void run_adjust(const Config& config, Report& report);

}  // namespace gpuhist::bench
