#include "vulkan/submission.hpp"

#include "gpuhist/error.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {
namespace {
// A stuck GPU becomes an error instead of a hang.
constexpr std::uint64_t kWaitTimeoutNs = 600ULL * 1000 * 1000 * 1000;
}  // namespace

Submission::Submission(const Device& device, const Pipelines& pipelines,
                       const std::array<VkBuffer, kBufferBindings>& buffers)
    : device_(device), pipelines_(pipelines) {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBufferBindings};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  check(vkCreateDescriptorPool(device.get(), &pool_info, nullptr, &pool),
        "creating a descriptor pool");
  pool_ = UniqueDescriptorPool(device.get(), pool);

  const VkDescriptorSetLayout set_layout = pipelines.set_layout();
  VkDescriptorSetAllocateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  set_info.descriptorPool = pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &set_layout;
  check(vkAllocateDescriptorSets(device.get(), &set_info, &set_), "allocating a descriptor set");
  std::array<VkDescriptorBufferInfo, kBufferBindings> infos{};
  std::array<VkWriteDescriptorSet, kBufferBindings> writes{};
  for (std::uint32_t i = 0; i < kBufferBindings; ++i) {
    infos[i] = {buffers[i], 0, VK_WHOLE_SIZE};
    writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[i].dstSet = set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device.get(), kBufferBindings, writes.data(), 0, nullptr);

  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(device.get(), &fence_info, nullptr, &fence), "creating a fence");
  fence_ = UniqueFence(device.get(), fence);

  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = device.command_pool();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(device.get(), &alloc, &commands_), "allocating a command buffer");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands_, &begin), "recording commands");
  vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.layout(), 0, 1,
                          &set_, 0, nullptr);
}

Submission::~Submission() {
  if (commands_ != VK_NULL_HANDLE) {
    vkFreeCommandBuffers(device_.get(), device_.command_pool(), 1, &commands_);
  }
}

void Submission::copy(VkBuffer src, VkBuffer dst, VkDeviceSize size) {
  const VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(commands_, src, dst, 1, &region);
}

void Submission::zero(VkBuffer buffer, VkDeviceSize size) {
  vkCmdFillBuffer(commands_, buffer, 0, size, 0);
}

void Submission::dispatch(VkPipeline pipeline, const PushParams& params, std::uint32_t groups_x,
                          std::uint32_t groups_y) {
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdPushConstants(commands_, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     sizeof(PushParams), &params);
  vkCmdDispatch(commands_, groups_x, groups_y, 1);
}

void Submission::barrier() {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  vkCmdPipelineBarrier(commands_, stages, stages, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void Submission::barrier_to_host() {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands_,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void Submission::reset_queries(VkQueryPool pool, std::uint32_t count) {
  vkCmdResetQueryPool(commands_, pool, 0, count);
}

void Submission::timestamp(VkQueryPool pool, std::uint32_t index) {
  vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, index);
}

void Submission::submit_and_wait() {
  check(vkEndCommandBuffer(commands_), "recording commands");
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands_;
  check(vkQueueSubmit(device_.queue(), 1, &submit, fence_.get()), "submitting GPU work");
  const VkFence fence = fence_.get();
  const VkResult result = vkWaitForFences(device_.get(), 1, &fence, VK_TRUE, kWaitTimeoutNs);
  if (result == VK_TIMEOUT) {
    throw Error(ErrorKind::Device, "GPU work did not finish within 10 minutes");
  }
  check(result, "waiting for GPU work");
}

}  // namespace gpuhist::vk
