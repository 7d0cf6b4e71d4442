#include "vulkan/builders.hpp"

#include <string>
#include <tuple>
#include <vector>

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {
namespace {
// A stuck GPU becomes an error instead of a hang.
constexpr std::uint64_t kWaitTimeoutNs = 600ULL * 1000 * 1000 * 1000;
}  // namespace

UniqueShaderModule make_shader_module(VkDevice device, std::span<const std::uint32_t> spirv) {
  VkShaderModuleCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  info.codeSize = spirv.size_bytes();
  info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(device, &info, nullptr, &module), "creating a shader module");
  return UniqueShaderModule(device, module);
}

UniqueDescriptorSetLayout make_storage_set_layout(VkDevice device, std::uint32_t count,
                                                  VkShaderStageFlags stages) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = stages;
  }
  VkDescriptorSetLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  info.bindingCount = count;
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout),
        "creating a descriptor set layout");
  return UniqueDescriptorSetLayout(device, layout);
}

UniquePipelineLayout make_pipeline_layout(VkDevice device, VkDescriptorSetLayout set_layout,
                                          std::uint32_t push_bytes, VkShaderStageFlags stages) {
  const VkPushConstantRange push{stages, 0, push_bytes};
  VkPipelineLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(device, &info, nullptr, &layout), "creating a pipeline layout");
  return UniquePipelineLayout(device, layout);
}

UniquePipeline make_compute_pipeline(VkDevice device, VkPipelineLayout layout,
                                     VkShaderModule module,
                                     const VkSpecializationInfo* specialization) {
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
        "building a compute pipeline");
  return UniquePipeline(device, pipeline);
}

StorageSet make_storage_set(VkDevice device, VkDescriptorSetLayout layout,
                            std::span<const VkDescriptorBufferInfo> buffers) {
  const auto count = static_cast<std::uint32_t>(buffers.size());
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  check(vkCreateDescriptorPool(device, &pool_info, nullptr, &pool), "creating a descriptor pool");
  StorageSet out{UniqueDescriptorPool(device, pool), VK_NULL_HANDLE};

  VkDescriptorSetAllocateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  set_info.descriptorPool = pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &layout;
  check(vkAllocateDescriptorSets(device, &set_info, &out.set), "allocating a descriptor set");
  std::vector<VkWriteDescriptorSet> writes(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = out.set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &buffers[i];
  }
  vkUpdateDescriptorSets(device, count, writes.data(), 0, nullptr);
  return out;
}

OneTimeCommands::OneTimeCommands(const Device& device, bool reusable, std::uint32_t queue)
    : device_(device), queue_(queue) {
  std::tie(commands_, fence_) = device.take_commands();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = reusable ? 0 : VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  // Beginning resets a command buffer that recorded before (the pool allows it).
  const VkResult began = vkBeginCommandBuffer(commands_, &begin);
  if (began != VK_SUCCESS) {
    device.give_back_commands(commands_, fence_, false);
    check(began, "recording commands");
  }
}

OneTimeCommands::~OneTimeCommands() {
  if (submitted_) {
    // The commands may still run: they must finish before they are freed.
    if (vkWaitForFences(device_.get(), 1, &fence_, VK_TRUE, kWaitTimeoutNs) != VK_SUCCESS) {
      // Still running, or the device is lost: not reused. The command buffer is
      // freed with the pool; the fence, which may still be pending, is left.
      return;
    }
  }
  device_.give_back_commands(commands_, fence_, ran_);
}

void OneTimeCommands::submit_and_wait(std::string_view what) {
  submit(what);
  wait(what);
}

void OneTimeCommands::submit(std::string_view what) {
  if (!ended_) check(vkEndCommandBuffer(commands_), "recording commands");
  ended_ = true;
  const VkFence fence = fence_;
  if (ran_) check(vkResetFences(device_.get(), 1, &fence), "resetting a fence");
  ran_ = true;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  check(vkQueueSubmit(device_.queue(queue_), 1, &submit, fence_),
        "submitting " + std::string(what));
  submitted_ = true;
}

bool OneTimeCommands::done(std::string_view what) const {
  const VkResult status = vkGetFenceStatus(device_.get(), fence_);
  if (status == VK_SUCCESS) return true;
  if (status == VK_NOT_READY) return false;
  check(status, "waiting for " + std::string(what));
  return true;
}

void OneTimeCommands::wait(std::string_view what, std::chrono::nanoseconds spin) {
  const VkFence fence = fence_;
  if (spin.count() > 0) {
    // A lost device shows here first.
    const auto until = std::chrono::steady_clock::now() + spin;
    while (!done(what) && std::chrono::steady_clock::now() < until) {
    }
  }
  const VkResult result = vkWaitForFences(device_.get(), 1, &fence, VK_TRUE, kWaitTimeoutNs);
  if (result == VK_TIMEOUT) {
    throw Error(ErrorKind::Device, std::string(what) + " did not finish within 10 minutes");
  }
  check(result, "waiting for " + std::string(what));
  submitted_ = false;
}

}  // namespace gpuhist::vk
