#include "render/gpu_renderer.hpp"

#include <array>
#include <cstring>
#include <limits>
#include <span>
#include <string>

#include "gpuhist/error.hpp"
#include "shaders/fullscreen_vert_spv.hpp"
#include "shaders/hist_draw_frag_spv.hpp"
#include "shaders/hist_scale_comp_spv.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

using vk::check;

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
// The scale pass and the fragment shader share one layout and push constants.
constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

// Mirrors DrawParams in src/shaders/draw_params.glsl.
struct DrawParams {
  std::uint32_t width, height, bins, scale_mode, channels, background;
};

std::uint32_t shader_scale_mode(ScaleMode mode) {
  return mode == ScaleMode::Seed ? 0U : mode == ScaleMode::Max ? 1U : 2U;
}

}  // namespace

GpuRenderer::GpuRenderer(const vk::Device& device) : device_(device) {
  const VkDevice dev = device.get();
  set_layout_ = vk::make_storage_set_layout(dev, 2, kStages);
  layout_ = vk::make_pipeline_layout(dev, set_layout_.get(), sizeof(DrawParams), kStages);
  const VkPipelineLayout layout = layout_.get();

  // Every pixel is written by the triangle: the old contents need not be loaded.
  VkAttachmentDescription attachment{};
  attachment.format = kFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference colour_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &colour_ref;
  // The fragment shader reads what the scale pass wrote; the copy reads the picture.
  std::array<VkSubpassDependency, 2> dependencies{};
  dependencies[0] = {VK_SUBPASS_EXTERNAL,
                     0,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT,
                     VK_ACCESS_SHADER_READ_BIT,
                     0};
  dependencies[1] = {0,
                     VK_SUBPASS_EXTERNAL,
                     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT,
                     0};
  VkRenderPassCreateInfo pass_info{};
  pass_info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  pass_info.attachmentCount = 1;
  pass_info.pAttachments = &attachment;
  pass_info.subpassCount = 1;
  pass_info.pSubpasses = &subpass;
  pass_info.dependencyCount = static_cast<std::uint32_t>(dependencies.size());
  pass_info.pDependencies = dependencies.data();
  VkRenderPass pass = VK_NULL_HANDLE;
  check(vkCreateRenderPass(dev, &pass_info, nullptr, &pass), "creating a render pass");
  render_pass_ = vk::UniqueRenderPass(dev, pass);

  const auto scale_module = vk::make_shader_module(dev, spirv::hist_scale_comp);
  scale_pipeline_ = vk::make_compute_pipeline(dev, layout, scale_module.get(), nullptr);

  const auto vertex = vk::make_shader_module(dev, spirv::fullscreen_vert);
  const auto fragment = vk::make_shader_module(dev, spirv::hist_draw_frag);
  std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vertex.get();
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fragment.get();
  stages[1].pName = "main";
  VkPipelineVertexInputStateCreateInfo input{};
  input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const std::array<VkDynamicState, 2> dynamic_states = {VK_DYNAMIC_STATE_VIEWPORT,
                                                        VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states.size());
  dynamic.pDynamicStates = dynamic_states.data();
  VkGraphicsPipelineCreateInfo graphics{};
  graphics.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  graphics.stageCount = 2;
  graphics.pStages = stages.data();
  graphics.pVertexInputState = &input;
  graphics.pInputAssemblyState = &assembly;
  graphics.pViewportState = &viewport;
  graphics.pRasterizationState = &raster;
  graphics.pMultisampleState = &multisample;
  graphics.pColorBlendState = &blend;
  graphics.pDynamicState = &dynamic;
  graphics.layout = layout;
  graphics.renderPass = pass;
  VkPipeline draw_pipeline = VK_NULL_HANDLE;
  check(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &graphics, nullptr, &draw_pipeline),
        "building the drawing pipeline");
  draw_pipeline_ = vk::UniquePipeline(dev, draw_pipeline);

  scale_ = vk::Buffer(device, 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUse::DeviceLocal);
}

void GpuRenderer::ensure_target(std::uint32_t width, std::uint32_t height) {
  if (target_ && width == target_width_ && height == target_height_) return;
  const VkDevice dev = device_.get();
  framebuffer_.reset();
  target_view_.reset();
  target_.reset();
  target_memory_.reset();

  VkImageCreateInfo image_info{};
  image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = kFormat;
  image_info.extent = {width, height, 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  check(vkCreateImage(dev, &image_info, nullptr, &image), "creating the render target");
  target_ = vk::UniqueImage(dev, image);
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(dev, image, &requirements);
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = requirements.size;
  const auto type = vk::find_memory_type(device_.memory(), requirements.memoryTypeBits,
                                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!type) throw Error(ErrorKind::Device, "no memory type for the render target");
  alloc.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(dev, &alloc, nullptr, &memory), "allocating the render target");
  target_memory_ = vk::UniqueMemory(dev, memory);
  check(vkBindImageMemory(dev, image, memory, 0), "binding the render target");

  VkImageViewCreateInfo view_info{};
  view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view_info.image = image;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = kFormat;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  check(vkCreateImageView(dev, &view_info, nullptr, &view), "creating the render target view");
  target_view_ = vk::UniqueImageView(dev, view);

  VkFramebufferCreateInfo fb_info{};
  fb_info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  fb_info.renderPass = render_pass_.get();
  fb_info.attachmentCount = 1;
  fb_info.pAttachments = &view;
  fb_info.width = width;
  fb_info.height = height;
  fb_info.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  check(vkCreateFramebuffer(dev, &fb_info, nullptr, &framebuffer), "creating a framebuffer");
  framebuffer_ = vk::UniqueFramebuffer(dev, framebuffer);
  target_width_ = width;
  target_height_ = height;
}

Picture GpuRenderer::draw(const Histogram& histogram, const DrawOptions& options) {
  validate(options);
  const std::uint32_t bins = histogram.bins();
  if (bins == 0) throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");
  const VkDevice dev = device_.get();
  ensure_target(options.width, options.height);

  // Counts in the GPU layout (bin * 4 + channel), saturated to 32 bits.
  const VkDeviceSize counts_bytes = VkDeviceSize{bins} * 16;
  vk::ensure_buffer(counts_, device_, counts_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    vk::MemoryUse::Upload);
  auto* counts = static_cast<std::uint32_t*>(counts_.mapped());
  std::memset(counts, 0, counts_bytes);
  for (Channel channel : histogram.channels()) {
    const auto c = static_cast<std::size_t>(channel);
    const auto source = histogram.counts(channel);
    for (std::size_t b = 0; b < bins; ++b) {
      counts[b * 4 + c] = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(source[b], std::numeric_limits<std::uint32_t>::max()));
    }
  }
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

  VkRenderPassBeginInfo pass_begin{};
  pass_begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass_begin.renderPass = render_pass_.get();
  pass_begin.framebuffer = framebuffer_.get();
  pass_begin.renderArea = {{0, 0}, {options.width, options.height}};
  // The render pass's first dependency makes the scale visible to the fragment shader.
  vkCmdBeginRenderPass(cmd, &pass_begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, draw_pipeline_.get());
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &set.set, 0,
                          nullptr);
  const VkViewport viewport{
      0.0f, 0.0f, static_cast<float>(options.width), static_cast<float>(options.height),
      0.0f, 1.0f};
  const VkRect2D scissor{{0, 0}, {options.width, options.height}};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRenderPass(cmd);

  // The render pass's last dependency orders this copy after the drawing.
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {options.width, options.height, 1};
  vkCmdCopyImageToBuffer(cmd, target_.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.get(),
                         1, &region);
  // The copied picture must be visible to the host after the wait.
  VkMemoryBarrier to_host{};
  to_host.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &to_host, 0, nullptr, 0, nullptr);
  commands.submit_and_wait("the drawing");

  Picture picture{options.width, options.height, std::vector<std::uint8_t>(picture_bytes)};
  std::memcpy(picture.rgba.data(), readback_.mapped(), picture_bytes);
  return picture;
}

}  // namespace gpuhist::render
