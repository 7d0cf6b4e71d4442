#include "gpuhist/strategy.hpp"

#include <array>
#include <utility>

namespace gpuhist {
namespace {

constexpr std::array<std::pair<Strategy, std::string_view>, 7> kNames = {{
    {Strategy::CpuReference, "cpu-reference"},
    {Strategy::Cpu, "cpu"},
    {Strategy::GpuSingle, "gpu-single"},
    {Strategy::GpuAtomic, "gpu-atomic"},
    {Strategy::GpuChunksSum, "gpu-chunks-sum"},
    {Strategy::GpuChunksReduce, "gpu-chunks-reduce"},
    {Strategy::Gpu, "gpu"},
}};

constexpr std::array<Strategy, 7> kLadder = {Strategy::CpuReference, Strategy::Cpu,
                                             Strategy::GpuSingle,    Strategy::GpuAtomic,
                                             Strategy::GpuChunksSum, Strategy::GpuChunksReduce,
                                             Strategy::Gpu};

}  // namespace

std::span<const Strategy> all_strategies() noexcept { return kLadder; }

std::string_view to_string(Strategy strategy) {
  for (const auto& [value, name] : kNames) {
    if (value == strategy) return name;
  }
  return "?";
}

std::optional<Strategy> parse_strategy(std::string_view name) {
  for (const auto& [value, known] : kNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string_view to_string(ChunkShape shape) {
  return shape == ChunkShape::Tile16x16 ? "16x16" : "256x1";
}

std::optional<ChunkShape> parse_chunk_shape(std::string_view name) {
  if (name == "256x1") return ChunkShape::Row256x1;
  if (name == "16x16") return ChunkShape::Tile16x16;
  return std::nullopt;
}

}  // namespace gpuhist
