#include "render/gpu_renderer.hpp"

#include <array>
#include <cstring>

#include "gpuhist/error.hpp"
#include "render/shader_inputs.hpp"
#include "shaders/hist_draw_frag_spv.hpp"
#include "shaders/hist_scale_comp_spv.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
// The scale pass and the fragment shader share one layout and push constants.
constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

// Mirrors DrawParams in src/shaders/draw_params.glsl.
struct DrawParams {
  std::uint32_t width, height, bins, scale_mode, channels, background;
};

}  // namespace

GpuRenderer::GpuRenderer(const vk::Device& device) : device_(device), target_(device, kFormat) {
  const VkDevice dev = device.get();
  set_layout_ = vk::make_storage_set_layout(dev, 2, kStages);
  layout_ = vk::make_pipeline_layout(dev, set_layout_.get(), sizeof(DrawParams), kStages);
  render_pass_ = vk::make_render_pass(dev, kFormat, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const auto scale_module = vk::make_shader_module(dev, spirv::hist_scale_comp);
  scale_pipeline_ = vk::make_compute_pipeline(dev, layout_.get(), scale_module.get(), nullptr);
  draw_pipeline_ =
      vk::make_fullscreen_pipeline(dev, layout_.get(), render_pass_.get(), spirv::hist_draw_frag);
  scale_ = vk::Buffer(device, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::DeviceLocal);
}

Picture GpuRenderer::draw(const Histogram& histogram, const DrawOptions& options) {
  validate(options);
  const std::uint32_t bins = histogram.bins();
  if (bins == 0) throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");
  const VkDevice dev = device_.get();
  target_.ensure(render_pass_.get(), options.width, options.height);

  const VkDeviceSize counts_bytes = VkDeviceSize{bins} * 16;
  vk::ensure_buffer(counts_, device_, counts_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    vk::MemoryUse::Upload);
  write_gpu_counts(histogram, static_cast<std::uint32_t*>(counts_.mapped()));
  const VkDeviceSize picture_bytes = VkDeviceSize{options.width} * options.height * 4;
  vk::ensure_buffer(readback_, device_, picture_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);

  // One descriptor set: the counts and the scale.
  const std::array<VkDescriptorBufferInfo, 2> infos = {
      VkDescriptorBufferInfo{counts_.get(), 0, counts_bytes},
      VkDescriptorBufferInfo{scale_.get(), 0, 32}};
  const vk::StorageSet set = vk::make_storage_set(dev, set_layout_.get(), infos);
  vk::OneTimeCommands commands(device_);
  const VkCommandBuffer cmd = commands.get();
  const DrawParams params{
      options.width,    options.height,    bins, shader_scale_mode(options.scale),
      options.channels, options.background};
  vkCmdPushConstants(cmd, layout_.get(), kStages, 0, sizeof(params), &params);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set.set, 0,
                          nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, scale_pipeline_.get());
  vkCmdDispatch(cmd, 1, 1, 1);
  // The render pass's first dependency makes the scale visible to the fragment shader.
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &set.set, 0,
                          nullptr);
  vk::draw_fullscreen(cmd, render_pass_.get(), target_.framebuffer(), draw_pipeline_.get(),
                      options.width, options.height);
  vk::record_readback(cmd, target_.image(), readback_.get(), options.width, options.height);
  commands.submit_and_wait("the drawing");

  Picture picture{options.width, options.height, std::vector<std::uint8_t>(picture_bytes)};
  std::memcpy(picture.rgba.data(), readback_.mapped(), picture_bytes);
  return picture;
}

}  // namespace gpuhist::render
