#include "render/scaled_draw.hpp"

#include <cstring>

#include "shaders/fullscreen_vert_spv.hpp"
#include "shaders/hist_scale_comp_spv.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

// The scale pass and the fragment shader share one layout and push constants.
constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

}  // namespace

ScaledDraw::ScaledDraw(const vk::Device& device, std::uint32_t buffers, std::uint32_t push_bytes,
                       std::span<const std::uint32_t> fragment, VkFormat format,
                       VkImageLayout final_layout)
    : device_(device), target_(device, format) {
  const VkDevice dev = device.get();
  set_layout_ = vk::make_storage_set_layout(dev, buffers, kStages);
  layout_ = vk::make_pipeline_layout(dev, set_layout_.get(), push_bytes, kStages);
  render_pass_ = vk::make_render_pass(dev, format, final_layout);
  const auto scale_module = vk::make_shader_module(dev, spirv::hist_scale_comp);
  scale_pipeline_ = vk::make_compute_pipeline(dev, layout_.get(), scale_module.get(), nullptr);
  draw_pipeline_ = vk::make_fullscreen_pipeline(dev, layout_.get(), render_pass_.get(),
                                                spirv::fullscreen_vert, fragment);
  scale_ = vk::Buffer(device, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::DeviceLocal);
}

void ScaledDraw::record(VkCommandBuffer cmd, VkDescriptorSet set, const void* params,
                        std::uint32_t params_bytes, VkFramebuffer framebuffer, std::uint32_t width,
                        std::uint32_t height) const {
  vkCmdPushConstants(cmd, layout_.get(), kStages, 0, params_bytes, params);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set, 0,
                          nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, scale_pipeline_.get());
  vkCmdDispatch(cmd, 1, 1, 1);
  // The render pass's first dependency makes the scale visible to the fragment shader.
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &set, 0,
                          nullptr);
  vk::draw_fullscreen(cmd, render_pass_.get(), framebuffer, draw_pipeline_.get(), width, height);
}

Picture ScaledDraw::draw_offscreen(
    std::uint32_t width, std::uint32_t height,
    const std::function<void(VkCommandBuffer, VkFramebuffer)>& record_into, std::string_view what) {
  target_.ensure(render_pass_.get(), width, height);
  const VkDeviceSize picture_bytes = VkDeviceSize{width} * height * 4;
  vk::ensure_buffer(readback_, device_, picture_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);
  vk::OneTimeCommands commands(device_);
  record_into(commands.get(), target_.framebuffer());
  vk::record_readback(commands.get(), target_.image(), readback_.get(), width, height);
  commands.submit_and_wait(what);
  Picture picture{width, height, std::vector<std::uint8_t>(picture_bytes)};
  std::memcpy(picture.rgba.data(), readback_.mapped(), picture_bytes);
  return picture;
}

}  // namespace gpuhist::render
