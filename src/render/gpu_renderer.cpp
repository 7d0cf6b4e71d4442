#include "render/gpu_renderer.hpp"

#include <array>

#include "gpuhist/error.hpp"
#include "render/shader_inputs.hpp"
#include "shaders/hist_draw_frag_spv.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::render {
namespace {

// Mirrors DrawParams in src/shaders/draw_params.glsl.
struct DrawParams {
  std::uint32_t width, height, bins, scale_mode, channels, background;
};
static_assert(sizeof(DrawParams) == 6 * 4);

}  // namespace

GpuRenderer::GpuRenderer(const vk::Device& device)
    : device_(device),
      passes_(device, 2, sizeof(DrawParams), spirv::hist_draw_frag, VK_FORMAT_R8G8B8A8_UNORM,
              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL) {}

Picture GpuRenderer::draw(const Histogram& histogram, const DrawOptions& options) {
  validate(options);
  const std::uint32_t bins = histogram.bins();
  if (bins == 0) throw Error(ErrorKind::InvalidArgument, "cannot draw an empty histogram");

  const VkDeviceSize counts_bytes = VkDeviceSize{bins} * 16;
  vk::ensure_buffer(counts_, device_, counts_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    vk::MemoryUse::Upload);
  write_gpu_counts(histogram, static_cast<std::uint32_t*>(counts_.mapped()));

  // One descriptor set: the counts and the scale.
  const std::array<VkDescriptorBufferInfo, 2> infos = {
      VkDescriptorBufferInfo{counts_.get(), 0, counts_bytes},
      VkDescriptorBufferInfo{passes_.scale(), 0, 32}};
  const vk::StorageSet set = vk::make_storage_set(device_.get(), passes_.set_layout(), infos);
  const DrawParams params{options.width,
                          options.height,
                          bins,
                          shader_scale_mode(options.scale),
                          drawn_channels(histogram, options.channels),
                          options.background};
  return passes_.draw_offscreen(
      options.width, options.height,
      [&](VkCommandBuffer cmd, VkFramebuffer target) {
        passes_.record(cmd, set.set, &params, sizeof(params), target, options.width,
                       options.height);
      },
      "the drawing");
}

}  // namespace gpuhist::render
