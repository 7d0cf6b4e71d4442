#include "engine/auto_strategy.hpp"

#include <algorithm>
#include <limits>

namespace gpuhist::engine {
namespace {

// Measured on the H200's host (docs/PERFORMANCE.md, 2026-12-02 18:35): a GPU
// call from pageable memory costs 0.065 ms and moves about 30 GB/s; the `cpu`
// strategy counts images under 65536 pixels on one thread, at about 2.3 GB/s.
constexpr double kGpuCallSeconds = 0.065e-3;
constexpr double kGpuBytesPerSecond = 30e9;
constexpr double kCpuBytesPerSecondOneThread = 2.3e9;

}  // namespace

std::uint64_t gpu_crossover_bytes(std::uint32_t cores) noexcept {
  // The times meet where the CPU still counts on one thread (about 160 KB),
  // so the crossover is the same for every number of cores: a larger image
  // gets more threads, each paying its start, and the GPU stayed ahead at
  // every size measured above it.
  (void)cores;
  // t_cpu = b / cpu, t_gpu = call + b / gpu: equal where b (1/cpu - 1/gpu) = call.
  const double saved_per_byte = 1.0 / kCpuBytesPerSecondOneThread - 1.0 / kGpuBytesPerSecond;
  if (saved_per_byte <= 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(kGpuCallSeconds / saved_per_byte);
}

Strategy auto_strategy(const ImageView& image, bool hardware, std::uint32_t cores) noexcept {
  if (!hardware) return Strategy::Cpu;
  const std::uint64_t bytes = image.pixel_count() * pixel_bytes(image.format);
  return bytes >= gpu_crossover_bytes(cores) ? Strategy::Gpu : Strategy::Cpu;
}

}  // namespace gpuhist::engine
