#include "engine/auto_strategy.hpp"

#include <algorithm>
#include <limits>

namespace gpuhist::engine {
namespace {

constexpr double kGpuCallSeconds = 0.3e-3;
constexpr double kGpuBytesPerSecond = 27e9;
constexpr double kCpuBytesPerSecondPerCore = 0.93e9;
constexpr double kCpuMostBytesPerSecond = 11e9;

}  // namespace

std::uint64_t gpu_crossover_bytes(std::uint32_t cores) noexcept {
  const double cpu =
      std::min(kCpuBytesPerSecondPerCore * (cores == 0 ? 1 : cores), kCpuMostBytesPerSecond);
  // t_cpu = b / cpu, t_gpu = call + b / gpu: equal where b (1/cpu - 1/gpu) = call.
  const double saved_per_byte = 1.0 / cpu - 1.0 / kGpuBytesPerSecond;
  if (saved_per_byte <= 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(kGpuCallSeconds / saved_per_byte);
}

Strategy auto_strategy(const ImageView& image, bool hardware, std::uint32_t cores) noexcept {
  if (!hardware) return Strategy::Cpu;
  const std::uint64_t bytes = image.pixel_count() * pixel_bytes(image.format);
  return bytes >= gpu_crossover_bytes(cores) ? Strategy::Gpu : Strategy::Cpu;
}

}  // namespace gpuhist::engine
