// The strategy ladder: every way gpuhist can count, from the plain CPU loop to
// the tuned GPU kernel. All strategies give identical histograms.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace gpuhist {

enum class Strategy : std::uint8_t {
  CpuReference,     // the plain loop over pixels; the oracle
  Cpu,              // multithreaded CPU path
  GpuSingle,        // one GPU invocation loops over every pixel
  GpuAtomic,        // one invocation per pixel, atomicAdd on a global histogram
  GpuChunksSum,     // per-chunk shared-memory histograms, summed by one workgroup
  GpuChunksReduce,  // the same chunks, summed by a log2(chunks) tree reduction
  Gpu,              // persistent workgroups with privatised shared-memory histograms
};

// Every strategy, in ladder order.
[[nodiscard]] std::span<const Strategy> all_strategies() noexcept;
// "cpu-reference", "cpu", "gpu-single", ...
[[nodiscard]] std::string_view to_string(Strategy strategy);
// The strategy with that name; nullopt for an unknown name.
[[nodiscard]] std::optional<Strategy> parse_strategy(std::string_view name);
// True for strategies that run on a Vulkan device.
[[nodiscard]] constexpr bool runs_on_gpu(Strategy strategy) noexcept {
  return strategy != Strategy::CpuReference && strategy != Strategy::Cpu;
}

// The pixel tile one chunk covers in the chunk strategies.
enum class ChunkShape : std::uint8_t { Row256x1, Tile16x16 };
[[nodiscard]] std::string_view to_string(ChunkShape shape);
[[nodiscard]] std::optional<ChunkShape> parse_chunk_shape(std::string_view name);

}  // namespace gpuhist
