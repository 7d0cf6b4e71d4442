#include "vulkan/submission.hpp"

#include <string>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::vk {

Submission::Submission(const Device& device, const Pipelines& pipelines,
                       const std::array<VkBuffer, kBufferBindings>& buffers, bool reusable,
                       std::uint32_t queue)
    : device_(device), pipelines_(pipelines), commands_(device, reusable, queue) {
  bind(buffers);
}

void Submission::bind(const std::array<VkBuffer, kBufferBindings>& buffers) {
  sets_.push_back(make_storage_set(device_.get(), pipelines_.set_layout(),
                                   std::array<VkDescriptorBufferInfo, kBufferBindings>{
                                       VkDescriptorBufferInfo{buffers[0], 0, VK_WHOLE_SIZE},
                                       VkDescriptorBufferInfo{buffers[1], 0, VK_WHOLE_SIZE},
                                       VkDescriptorBufferInfo{buffers[2], 0, VK_WHOLE_SIZE}}));
  vkCmdBindDescriptorSets(commands_.get(), VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_.layout(), 0,
                          1, &sets_.back().set, 0, nullptr);
}

void Submission::copy(VkBuffer src, VkBuffer dst, VkDeviceSize size) {
  const VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(commands_.get(), src, dst, 1, &region);
}

void Submission::copy(VkBuffer src, VkBuffer dst, std::span<const VkBufferCopy> regions) {
  if (regions.empty()) return;
  vkCmdCopyBuffer(commands_.get(), src, dst, static_cast<std::uint32_t>(regions.size()),
                  regions.data());
}

void Submission::zero(VkBuffer buffer, VkDeviceSize size) {
  vkCmdFillBuffer(commands_.get(), buffer, 0, size, 0);
}

void Submission::dispatch_bytes(VkPipeline pipeline, const void* params, std::uint32_t bytes,
                                std::uint32_t groups_x, std::uint32_t groups_y) {
  if (bytes > pipelines_.push_bytes()) {
    throw Error(ErrorKind::Device, "push constants of " + std::to_string(bytes) +
                                       " bytes exceed the pipeline layout's (an internal error)");
  }
  vkCmdBindPipeline(commands_.get(), VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdPushConstants(commands_.get(), pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes,
                     params);
  vkCmdDispatch(commands_.get(), groups_x, groups_y, 1);
}

void Submission::barrier() {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  vkCmdPipelineBarrier(commands_.get(), stages, stages, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void Submission::barrier_to_host() {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  memory.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands_.get(),
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void Submission::reset_queries(VkQueryPool pool, std::uint32_t count) {
  vkCmdResetQueryPool(commands_.get(), pool, 0, count);
}

void Submission::timestamp(VkQueryPool pool, std::uint32_t index) {
  vkCmdWriteTimestamp(commands_.get(), VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, index);
}

void Submission::submit_and_wait() { commands_.submit_and_wait("GPU work"); }
void Submission::submit() { commands_.submit("GPU work"); }
void Submission::wait(std::chrono::nanoseconds spin) { commands_.wait("GPU work", spin); }

}  // namespace gpuhist::vk
