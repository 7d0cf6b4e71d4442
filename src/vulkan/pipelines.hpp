// A cache of compute pipelines that share one pipeline layout (three storage
// buffers and one push-constant block of a size the owner gives) and differ
// in their SPIR-V and specialization constants. The SPIR-V comes from the
// caller: each layer embeds its own shaders.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

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
  // Every pipeline pushes at most `push_bytes` of constants.
  Pipelines(const Device& device, std::uint32_t push_bytes);

  // The pipeline for the shader `spirv` (which must outlive the cache: the
  // embedded shaders do) specialised with `constants`, built on first use and
  // cached. Throws Error(Device) when the driver rejects it.
  VkPipeline get(std::span<const std::uint32_t> spirv, std::span<const SpecConstant> constants);
  // The same for a layer's shader id, whose SPIR-V shader_code(id) gives (found by
  // argument-dependent lookup in the id's namespace).
  template <class ShaderId>
  requires std::is_enum_v<ShaderId> VkPipeline get(ShaderId id,
                                                   std::span<const SpecConstant> constants) {
    return get(shader_code(id), constants);
  }
  [[nodiscard]] std::uint32_t push_bytes() const noexcept { return push_bytes_; }

  [[nodiscard]] VkPipelineLayout layout() const noexcept { return layout_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const noexcept { return set_layout_.get(); }

 private:
  struct Key {
    const std::uint32_t* code;
    std::size_t words;
    std::vector<SpecConstant> constants;
    friend bool operator<(const Key& a, const Key& b) {
      return std::tie(a.code, a.words, a.constants) < std::tie(b.code, b.words, b.constants);
    }
  };
  const Device& device_;
  std::uint32_t push_bytes_;
  UniqueDescriptorSetLayout set_layout_;
  UniquePipelineLayout layout_;
  std::mutex mutex_;
  std::map<Key, UniquePipeline> cache_;
};

}  // namespace gpuhist::vk
