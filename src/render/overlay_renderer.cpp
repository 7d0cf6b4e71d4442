#include "render/overlay_renderer.hpp"

#include <array>
#include <cstring>

#include "gpuhist/error.hpp"
#include "render/cover.hpp"
#include "render/shader_inputs.hpp"
#include "shaders/overlay_frag_spv.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

// Mirrors OverlayParams in src/shaders/overlay_params.glsl.
struct OverlayParams {
  std::uint32_t width, height, bins, scale_mode, left_channels, background, right_channels;
  std::uint32_t panel_width, panel_height, left_x, right_x, panel_y, sample_step;
};
static_assert(sizeof(OverlayParams) == 13 * 4);

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

}  // namespace

OverlayRenderer::OverlayRenderer(const vk::Device& device, VkFormat format,
                                 VkImageLayout final_layout)
    : device_(device),
      passes_(device, 4, sizeof(OverlayParams), spirv::overlay_frag, format, final_layout) {}

void OverlayRenderer::set_frame(const ImageView& frame, const Histogram& histogram,
                                std::uint32_t width, std::uint32_t height, std::uint32_t aspect_num,
                                std::uint32_t aspect_den) {
  validate_overlay(frame, width, height);
  if (histogram.bins() == 0)
    throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");

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

  // Byte offsets of each target column's red sample and of each target row.
  vk::ensure_buffer(map_, device_, (VkDeviceSize{width} + height) * 4, kStorage,
                    vk::MemoryUse::Upload);
  auto* map = static_cast<std::uint32_t*>(map_.mapped());
  const Cover cover(frame.width, frame.height, width, height, aspect_num, aspect_den);
  for (std::uint32_t x = 0; x < width; ++x) {
    map[x] = cover.source_x(x) * 3 * sample_bytes;
  }
  for (std::uint32_t y = 0; y < height; ++y) {
    map[width + y] = static_cast<std::uint32_t>(cover.source_y(y) * row_bytes);
  }

  // A new set every frame: any of the buffers may have been reallocated.
  const std::array<VkDescriptorBufferInfo, 4> infos = {
      VkDescriptorBufferInfo{counts_.get(), 0, VK_WHOLE_SIZE},
      VkDescriptorBufferInfo{passes_.scale(), 0, 32},
      VkDescriptorBufferInfo{frame_.get(), 0, VK_WHOLE_SIZE},
      VkDescriptorBufferInfo{map_.get(), 0, VK_WHOLE_SIZE}};
  set_ = vk::StorageSet();
  set_ = vk::make_storage_set(device_.get(), passes_.set_layout(), infos);
  width_ = width;
  height_ = height;
  bins_ = histogram.bins();
  colour_ = histogram.colour();
  sample_step_ = sample_bytes;
}

void OverlayRenderer::record(VkCommandBuffer cmd, VkFramebuffer framebuffer,
                             const OverlayStyle& style) {
  const OverlayLayout layout = overlay_layout(width_, height_);
  const OverlayParams params{width_,
                             height_,
                             bins_,
                             shader_scale_mode(style.scale),
                             colour_ ? style.left_channels : kDrawLuminance,
                             style.background,
                             colour_ ? style.right_channels : kDrawLuminance,
                             layout.panel_width,
                             layout.panel_height,
                             layout.left_x,
                             layout.right_x,
                             layout.y,
                             sample_step_};
  passes_.record(cmd, set_.set, &params, sizeof(params), framebuffer, width_, height_);
}

Picture OverlayRenderer::draw(const ImageView& frame, const Histogram& histogram,
                              std::uint32_t width, std::uint32_t height,
                              const OverlayStyle& style) {
  set_frame(frame, histogram, width, height);
  return passes_.draw_offscreen(
      width, height, [&](VkCommandBuffer cmd, VkFramebuffer target) { record(cmd, target, style); },
      "the overlay");
}

}  // namespace gpuhist::render
