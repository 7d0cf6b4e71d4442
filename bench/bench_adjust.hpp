// The benchmark's adjustments: each adjustment of a frame (count, tables,
// apply) timed on the wall clock, with the tables applied on the GPU and on
// the CPU, whose bytes must agree.
#pragma once

#include "bench_runner.hpp"

namespace gpuhist::bench {

// Frames of the photograph (random pixels without one), in each of the
// configured formats (RGB8, as decoded video frames are, by default), adjusted
// by every kind, matched to a frame of random pixels. Opens its own context.
void run_adjust(const Config& config, Report& report);

}  // namespace gpuhist::bench
