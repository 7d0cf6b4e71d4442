#include "vulkan/pipelines.hpp"

#include <string>

#include "gpuhist/error.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {
Pipelines::Pipelines(const Device& device, std::uint32_t push_bytes)
    : device_(device),
      push_bytes_(push_bytes),
      set_layout_(
          make_storage_set_layout(device.get(), kBufferBindings, VK_SHADER_STAGE_COMPUTE_BIT)),
      layout_(make_pipeline_layout(device.get(), set_layout_.get(), push_bytes,
                                   VK_SHADER_STAGE_COMPUTE_BIT)) {}

VkPipeline Pipelines::get(std::span<const std::uint32_t> spirv,
                          std::span<const SpecConstant> constants) {
  std::lock_guard lock(mutex_);
  Key key{spirv.data(), spirv.size(), {constants.begin(), constants.end()}};
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();

  const UniqueShaderModule module = make_shader_module(device_.get(), spirv);

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
