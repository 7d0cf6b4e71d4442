// What both GPU renderers run: the scale pass (src/shaders/hist_scale.comp)
// finds each channel's largest count and total, then one full-screen triangle
// with the renderer's own fragment shader draws into a framebuffer of their
// render pass. Both pipelines share one layout: storage buffers 0..n-1 (the
// counts at 0, the scale at 1) and one push-constant block whose first words
// are DrawParams' (width, height, bins). Also draws off-screen and reads back.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include <vulkan/vulkan.h>

#include "gpuhist/render.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/graphics.hpp"
#include "vulkan/handles.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::render {

class ScaledDraw {
 public:
  // Throws Error(Device) when the device cannot build the pipelines.
  ScaledDraw(const vk::Device& device, std::uint32_t buffers, std::uint32_t push_bytes,
             std::span<const std::uint32_t> fragment, VkFormat format, VkImageLayout final_layout);

  [[nodiscard]] VkRenderPass render_pass() const noexcept { return render_pass_.get(); }
  [[nodiscard]] VkDescriptorSetLayout set_layout() const noexcept { return set_layout_.get(); }
  // 32 bytes: per-channel largest count, then per-channel total (binding 1).
  [[nodiscard]] VkBuffer scale() const noexcept { return scale_.get(); }

  // Records the scale pass, then the drawing into `framebuffer` (width x height).
  void record(VkCommandBuffer cmd, VkDescriptorSet set, const void* params,
              std::uint32_t params_bytes, VkFramebuffer framebuffer, std::uint32_t width,
              std::uint32_t height) const;

  // Draws off-screen (the format must be RGBA8, the final layout TRANSFER_SRC):
  // `record_into` records into the target's framebuffer; the picture is read back.
  [[nodiscard]] Picture draw_offscreen(
      std::uint32_t width, std::uint32_t height,
      const std::function<void(VkCommandBuffer, VkFramebuffer)>& record_into,
      std::string_view what);

 private:
  const vk::Device& device_;
  vk::UniqueDescriptorSetLayout set_layout_;
  vk::UniquePipelineLayout layout_;
  vk::UniqueRenderPass render_pass_;
  vk::UniquePipeline scale_pipeline_;
  vk::UniquePipeline draw_pipeline_;
  vk::Buffer scale_;
  vk::RenderTarget target_;  // draw_offscreen's picture
  vk::Buffer readback_;      // and its bytes for the host
};

}  // namespace gpuhist::render
