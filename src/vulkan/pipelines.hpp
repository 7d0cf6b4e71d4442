// One pipeline builder for every histogram shader: all share one descriptor
// set layout (three storage buffers) and one push-constant block, and differ
// only in their SPIR-V and specialization constants.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

enum class Shader : std::uint8_t {
  HistSingle,
  HistAtomic,
  HistChunks,
  ChunksSum,
  ChunksReduce,
  HistPrivatized,
  HistPrivatizedSubgroup,
  CopyQuads,
  ReadQuads,
  MergeCopies,
  SplitPlanes,
  ApplyLut,
  ClaheApply,
  ClaheTiles,
  MakeTables,
};

// Mirrors `Params` in src/shaders/params.glsl.
struct PushParams {
  std::uint32_t pixel_count = 0;
  std::uint32_t width = 0;
  std::uint32_t chunk_base = 0;
  std::uint32_t chunk_count = 0;
  std::uint32_t stride = 0;
  std::uint32_t first = 0;
  std::uint32_t group_count = 0;
};

// Specialization constant ids, as declared in the shaders.
enum SpecId : std::uint32_t {
  kSpecChannels = 0,
  kSpecSampleBits = 1,
  kSpecBins = 2,
  kSpecLuma601 = 3,
  kSpecSharedWords = 4,
  kSpecUseShared = 5,
  kSpecCopies = 6,
  kSpecCopyShift = 7,
  kSpecWide = 8,
  kSpecInterleave = 9,
  kSpecLocalX = 10,
  kSpecLocalY = 11,
  kSpecUnroll = 12,
  kSpecMergeCopies = 13,
  kSpecSplit = 14,
  kSpecHalves = 15,
  kSpecFinish = 16,
  kSpecQuadRuns = 17,
  kSpecVoteRuns = 18,
  kSpecGlobalRounds = 19,
  kSpecRanges = 20,
  kSpecRoundIters = 21,
  kSpecPlanes = 22,
  kSpecRows = 23,
  kSpecLutTarget = 24,
  kSpecTableKind = 25,
};

struct SpecConstant {
  std::uint32_t id;
  std::uint32_t value;
  friend bool operator<(const SpecConstant& a, const SpecConstant& b) {
    return a.id != b.id ? a.id < b.id : a.value < b.value;
  }
};

inline constexpr std::uint32_t kBufferBindings = 3;

class Pipelines {
 public:
  explicit Pipelines(const Device& device);

  // The pipeline for a shader specialised with `constants`, built on first use
  // and cached. Throws Error(Device) when the driver rejects it.
  VkPipeline get(Shader shader, std::span<const SpecConstant> constants);

  [[nodiscard]] VkPipelineLayout layout() const noexcept { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const noexcept { return set_layout_.get(); }

 private:
  using Key = std::pair<Shader, std::vector<SpecConstant>>;
  const Device& device_;
  UniqueDescriptorSetLayout set_layout_;
  UniquePipelineLayout layout_;
  std::mutex mutex_;
  std::map<Key, UniquePipeline> cache_;
};

}  // namespace gpuhist::vk
