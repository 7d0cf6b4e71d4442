// The counting shaders (src/shaders/hist_*.comp and their passes), embedded
// as SPIR-V, and the C++ mirror of the push-constant block they share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "shaders/spec_ids.hpp"

namespace gpuhist::count {

enum class Shader : std::uint8_t {
  HistSingle,
  HistAtomic,
  HistChunks,
  ChunksSum,
  ChunksReduce,
  HistPrivatized,
  HistPrivatizedSubgroup,
  MergeCopies,
  SplitPlanes,
};

// The shader's SPIR-V words (vk::Pipelines::get finds it by this name).
[[nodiscard]] std::span<const std::uint32_t> shader_code(Shader shader);

// `Params` in src/shaders/params.glsl, field for field (pixelCount is
// pixel_count here, and so on).
struct CountParams {
  std::uint32_t pixel_count = 0;  // pixels in this batch
  std::uint32_t width = 0;        // pixels per row of the batch, for tiling into chunks
  std::uint32_t chunk_base = 0;   // first chunk of this wave
  std::uint32_t chunk_count = 0;  // chunks in this wave
  std::uint32_t stride = 0;       // distance between the chunks one reduction pass adds
  std::uint32_t first = 0;        // first pixel of this dispatch (gpu-single walks in spans)
  std::uint32_t group_count = 0;  // workgroups of the whole run, over all its dispatches
};
static_assert(sizeof(CountParams) == 28 && offsetof(CountParams, group_count) == 24);

}  // namespace gpuhist::count
