// The host-memory stream of the benchmark: frames counted with several in flight.
#pragma once

#include <cstdint>
#include "bench_runner.hpp"

#include "count/gpu_counter.hpp"

namespace gpuhist::bench {

struct StreamResult {
  Histogram histogram;          // of the last frame
  std::uint32_t frames = 0;     // counted: the frames asked for, rounded up to whole submissions
  std::uint32_t differing = 0;  // frames whose histogram differs from the last one's
  std::uint32_t frames_per_submit = 1;
  double seconds = 0;  // from the first submission to the last frame's counts on the host
  double gbps = 0;     // frame bytes per second
  double fps = 0;
  std::uint32_t queues = 1;  // queues the frames took in turn
};

// Counts `frames` frames held in host-visible memory with the `gpu`
// strategy, laid out and filled as `setup` says (the frames rounded up to
// whole submissions). The frame must fit in one batch.
[[nodiscard]] StreamResult stream_rate(count::GpuCounter& counter, const ImageView& frame,
                                       const HistogramOptions& options, std::uint32_t frames,
                                       const count::StreamSetup& setup);

// Frames of the photograph (random pixels without one) in host memory, counted
// with several in flight: read in place, copied to the device first, and
// copied by the host into their slot before each submission (as
// FrameStream::push does).
void run_stream(const Config& config, count::GpuCounter& counter, Report& report);

}  // namespace gpuhist::bench
