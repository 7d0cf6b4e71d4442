#include "render/overlay_renderer.hpp"

#include <array>
#include <cstring>

#include "gpuhist/error.hpp"
#include "render/cover.hpp"
#include "render/shader_inputs.hpp"
#include "shaders/hist_scale_comp_spv.hpp"
#include "shaders/overlay_frag_spv.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

constexpr VkShaderStageFlags kStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

// Mirrors OverlayParams in src/shaders/overlay_params.glsl.
struct OverlayParams {
  std::uint32_t width, height, bins, scale_mode, left_channels, background, right_channels;
  std::uint32_t panel_width, panel_height, left_x, right_x, panel_y, sample_step;
};

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

}  // namespace

OverlayRenderer::OverlayRenderer(const vk::Device& device, VkFormat format,
                                 VkImageLayout final_layout)
    : device_(device), target_(device, format) {
  const VkDevice dev = device.get();
  set_layout_ = vk::make_storage_set_layout(dev, 4, kStages);
  layout_ = vk::make_pipeline_layout(dev, set_layout_.get(), sizeof(OverlayParams), kStages);
  render_pass_ = vk::make_render_pass(dev, format, final_layout);
  const auto scale_module = vk::make_shader_module(dev, spirv::hist_scale_comp);
  scale_pipeline_ = vk::make_compute_pipeline(dev, layout_.get(), scale_module.get(), nullptr);
  draw_pipeline_ =
      vk::make_fullscreen_pipeline(dev, layout_.get(), render_pass_.get(), spirv::overlay_frag);
  scale_ = vk::Buffer(device, 32, kStorage, vk::MemoryUse::DeviceLocal);
}

void OverlayRenderer::set_frame(const ImageView& frame, const Histogram& histogram,
                                std::uint32_t width, std::uint32_t height) {
  validate_overlay(frame, width, height);
  if (histogram.bins() == 0) throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");

  const VkDeviceSize counts_bytes = VkDeviceSize{histogram.bins()} * 16;
  vk::ensure_buffer(counts_, device_, counts_bytes, kStorage, vk::MemoryUse::Upload);
  write_gpu_counts(histogram, static_cast<std::uint32_t*>(counts_.mapped()));

  // The frame's rows, packed; whole words, since the shader reads 32 bits at a time.
  const std::uint32_t sample_bytes = frame.format.sample == SampleType::U16 ? 2 : 1;
  const std::size_t row_bytes = std::size_t{frame.width} * 3 * sample_bytes;
  vk::ensure_buffer(frame_, device_, (row_bytes * frame.height + 3) & ~std::size_t{3}, kStorage,
                    vk::MemoryUse::Upload);
  auto* pixels = static_cast<std::byte*>(frame_.mapped());
  if (frame.stride == row_bytes) {
    std::memcpy(pixels, frame.row(0), row_bytes * frame.height);
  } else {
    for (std::uint32_t y = 0; y < frame.height; ++y) {
      std::memcpy(pixels + y * row_bytes, frame.row(y), row_bytes);
    }
  }

  // Byte offsets of each target column's red sample (its high byte when 16-bit,
  // little-endian) and of each target row.
  vk::ensure_buffer(map_, device_, (VkDeviceSize{width} + height) * 4, kStorage,
                    vk::MemoryUse::Upload);
  auto* map = static_cast<std::uint32_t*>(map_.mapped());
  const Cover cover(frame.width, frame.height, width, height);
  for (std::uint32_t x = 0; x < width; ++x) {
    map[x] = cover.source_x(x) * 3 * sample_bytes + (sample_bytes - 1);
  }
  for (std::uint32_t y = 0; y < height; ++y) {
    map[width + y] = static_cast<std::uint32_t>(cover.source_y(y) * row_bytes);
  }

  // A new set every frame: any of the buffers may have been reallocated.
  const std::array<VkDescriptorBufferInfo, 4> infos = {
      VkDescriptorBufferInfo{counts_.get(), 0, VK_WHOLE_SIZE},
      VkDescriptorBufferInfo{scale_.get(), 0, 32},
      VkDescriptorBufferInfo{frame_.get(), 0, VK_WHOLE_SIZE},
      VkDescriptorBufferInfo{map_.get(), 0, VK_WHOLE_SIZE}};
  set_ = vk::StorageSet();
  set_ = vk::make_storage_set(device_.get(), set_layout_.get(), infos);
  width_ = width;
  height_ = height;
  bins_ = histogram.bins();
  sample_step_ = sample_bytes;
}

void OverlayRenderer::record(VkCommandBuffer cmd, VkFramebuffer framebuffer,
                             const OverlayStyle& style) {
  const OverlayLayout layout = overlay_layout(width_, height_);
  const OverlayParams params{width_,
                             height_,
                             bins_,
                             shader_scale_mode(style.scale),
                             style.left_channels,
                             style.background,
                             style.right_channels,
                             layout.panel_width,
                             layout.panel_height,
                             layout.left_x,
                             layout.right_x,
                             layout.y,
                             sample_step_};
  vkCmdPushConstants(cmd, layout_.get(), kStages, 0, sizeof(params), &params);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set_.set, 0,
                          nullptr);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, scale_pipeline_.get());
  vkCmdDispatch(cmd, 1, 1, 1);
  // The render pass's first dependency makes the scale visible to the fragment shader.
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), 0, 1, &set_.set,
                          0, nullptr);
  vk::draw_fullscreen(cmd, render_pass_.get(), framebuffer, draw_pipeline_.get(), width_,
                      height_);
}

Picture OverlayRenderer::draw(const ImageView& frame, const Histogram& histogram,
                              std::uint32_t width, std::uint32_t height,
                              const OverlayStyle& style) {
  set_frame(frame, histogram, width, height);
  target_.ensure(render_pass_.get(), width, height);
  const VkDeviceSize picture_bytes = VkDeviceSize{width} * height * 4;
  vk::ensure_buffer(readback_, device_, picture_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);
  vk::OneTimeCommands commands(device_);
  record(commands.get(), target_.framebuffer(), style);
  vk::record_readback(commands.get(), target_.image(), readback_.get(), width, height);
  commands.submit_and_wait("the overlay");
  Picture picture{width, height, std::vector<std::uint8_t>(picture_bytes)};
  std::memcpy(picture.rgba.data(), readback_.mapped(), picture_bytes);
  return picture;
}

}  // namespace gpuhist::render
