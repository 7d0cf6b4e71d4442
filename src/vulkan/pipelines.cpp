#include "vulkan/pipelines.hpp"

#include <string>

#include "gpuhist/error.hpp"
#include "shaders/apply_lut_comp_spv.hpp"
#include "shaders/chunks_reduce_comp_spv.hpp"
#include "shaders/chunks_sum_comp_spv.hpp"
#include "shaders/clahe_apply_comp_spv.hpp"
#include "shaders/clahe_tiles_comp_spv.hpp"
#include "shaders/copy_quads_comp_spv.hpp"
#include "shaders/hist_atomic_comp_spv.hpp"
#include "shaders/hist_chunks_comp_spv.hpp"
#include "shaders/hist_privatized_comp_spv.hpp"
#include "shaders/hist_privatized_subgroup_comp_spv.hpp"
#include "shaders/hist_single_comp_spv.hpp"
#include "shaders/make_tables_comp_spv.hpp"
#include "shaders/merge_copies_comp_spv.hpp"
#include "shaders/read_quads_comp_spv.hpp"
#include "shaders/split_planes_comp_spv.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {
namespace {

std::span<const std::uint32_t> spirv(Shader shader) {
  switch (shader) {
    case Shader::HistSingle:
      return spirv::hist_single_comp;
    case Shader::HistAtomic:
      return spirv::hist_atomic_comp;
    case Shader::HistChunks:
      return spirv::hist_chunks_comp;
    case Shader::ChunksSum:
      return spirv::chunks_sum_comp;
    case Shader::ChunksReduce:
      return spirv::chunks_reduce_comp;
    case Shader::HistPrivatizedSubgroup:
      return spirv::hist_privatized_subgroup_comp;
    case Shader::HistPrivatized:
      return spirv::hist_privatized_comp;
    case Shader::CopyQuads:
      return spirv::copy_quads_comp;
    case Shader::ReadQuads:
      return spirv::read_quads_comp;
    case Shader::MergeCopies:
      return spirv::merge_copies_comp;
    case Shader::SplitPlanes:
      return spirv::split_planes_comp;
    case Shader::ApplyLut:
      return spirv::apply_lut_comp;
    case Shader::ClaheApply:
      return spirv::clahe_apply_comp;
    case Shader::ClaheTiles:
      return spirv::clahe_tiles_comp;
    case Shader::MakeTables:
      return spirv::make_tables_comp;
  }
  return {};
}

}  // namespace

Pipelines::Pipelines(const Device& device)
    : device_(device),
      set_layout_(
          make_storage_set_layout(device.get(), kBufferBindings, VK_SHADER_STAGE_COMPUTE_BIT)),
      layout_(make_pipeline_layout(device.get(), set_layout_.get(), sizeof(PushParams),
                                   VK_SHADER_STAGE_COMPUTE_BIT)) {}

VkPipeline Pipelines::get(Shader shader, std::span<const SpecConstant> constants) {
  std::lock_guard lock(mutex_);
  Key key{shader, {constants.begin(), constants.end()}};
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();

  const UniqueShaderModule module = make_shader_module(device_.get(), spirv(shader));

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<std::uint32_t> values;
  for (const SpecConstant& constant : constants) {
    for (const VkSpecializationMapEntry& entry : entries) {
      if (entry.constantID == constant.id) {
        throw Error(ErrorKind::Device, "specialization constant " + std::to_string(constant.id) +
                                           " given twice (an internal error)");
      }
    }
    entries.push_back({constant.id, static_cast<std::uint32_t>(values.size() * 4), 4});
    values.push_back(constant.value);
  }
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<std::uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = values.size() * sizeof(std::uint32_t);
  specialization.pData = values.data();

  return cache_
      .emplace(std::move(key),
               make_compute_pipeline(device_.get(), layout_.get(), module.get(), &specialization))
      .first->second.get();
}

}  // namespace gpuhist::vk
