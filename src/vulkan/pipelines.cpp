#include "vulkan/pipelines.hpp"

#include <array>

#include "shaders/chunks_reduce_comp_spv.hpp"
#include "shaders/chunks_sum_comp_spv.hpp"
#include "shaders/hist_atomic_comp_spv.hpp"
#include "shaders/hist_chunks_comp_spv.hpp"
#include "shaders/hist_privatized_comp_spv.hpp"
#include "shaders/hist_privatized_subgroup_comp_spv.hpp"
#include "shaders/hist_single_comp_spv.hpp"
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
  }
  return {};
}

}  // namespace

Pipelines::Pipelines(const Device& device) : device_(device) {
  std::array<VkDescriptorSetLayoutBinding, kBufferBindings> bindings{};
  for (std::uint32_t i = 0; i < kBufferBindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = kBufferBindings;
  set_info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device.get(), &set_info, nullptr, &set_layout),
        "creating a descriptor set layout");
  set_layout_ = UniqueDescriptorSetLayout(device.get(), set_layout);

  VkPushConstantRange push{};
  push.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  push.size = sizeof(PushParams);
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(device.get(), &layout_info, nullptr, &layout),
        "creating a pipeline layout");
  layout_ = UniquePipelineLayout(device.get(), layout);
}

VkPipeline Pipelines::get(Shader shader, std::span<const SpecConstant> constants) {
  std::lock_guard lock(mutex_);
  Key key{shader, {constants.begin(), constants.end()}};
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();

  const auto code = spirv(shader);
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = code.size_bytes();
  module_info.pCode = code.data();
  VkShaderModule raw_module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(device_.get(), &module_info, nullptr, &raw_module),
        "creating a shader module");
  const UniqueShaderModule module(device_.get(), raw_module);

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<std::uint32_t> values;
  for (const SpecConstant& constant : constants) {
    entries.push_back({constant.id, static_cast<std::uint32_t>(values.size() * 4), 4});
    values.push_back(constant.value);
  }
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<std::uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = values.size() * sizeof(std::uint32_t);
  specialization.pData = values.data();

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout_.get();
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(device_.get(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
        "building a compute pipeline");
  return cache_.emplace(std::move(key), UniquePipeline(device_.get(), pipeline))
      .first->second.get();
}

}  // namespace gpuhist::vk
