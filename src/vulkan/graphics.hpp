// The graphics objects the full-screen passes build the same way: a one-
// attachment render pass, a full-screen-triangle pipeline, and an off-screen
// colour target with its framebuffer.
#pragma once

#include <cstdint>
#include <span>

#include <vulkan/vulkan.h>

#include "vulkan/handles.hpp"

namespace gpuhist::vk {

class Device;

// One colour attachment of `format` whose every pixel the pass writes, left in
// `final_layout`. Dependencies: compute writes before the fragment shader reads
// them, earlier attachment use (a presentation) before this one writes, and this
// one's writes before later transfers (a read-back).
[[nodiscard]] UniqueRenderPass make_render_pass(VkDevice device, VkFormat format,
                                                VkImageLayout final_layout);

// `vertex` (a shader that draws one triangle over the viewport from three
// vertex indices, no vertex buffers) with `fragment`: no blending, viewport
// and scissor set when drawing.
[[nodiscard]] UniquePipeline make_fullscreen_pipeline(VkDevice device, VkPipelineLayout layout,
                                                      VkRenderPass pass,
                                                      std::span<const std::uint32_t> vertex,
                                                      std::span<const std::uint32_t> fragment);

// Records `pass` over the whole of `framebuffer`, one full-screen triangle.
void draw_fullscreen(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer framebuffer,
                     VkPipeline pipeline, std::uint32_t width, std::uint32_t height);

// An off-screen colour image of `format` (attachment and copy source) with its
// view and a framebuffer for `pass`; rebuilt by ensure() when the size changes.
class RenderTarget {
 public:
  RenderTarget(const Device& device, VkFormat format) : device_(device), format_(format) {}
  void ensure(VkRenderPass pass, std::uint32_t width, std::uint32_t height);
  [[nodiscard]] VkImage image() const noexcept { return image_.get(); }
  [[nodiscard]] VkFramebuffer framebuffer() const noexcept { return framebuffer_.get(); }

 private:
  const Device& device_;
  VkFormat format_;
  UniqueMemory memory_;  // freed last
  UniqueImage image_;
  UniqueImageView view_;
  UniqueFramebuffer framebuffer_;
  std::uint32_t width_ = 0, height_ = 0;
};

// Copies a whole width x height RGBA8 `image` (in TRANSFER_SRC_OPTIMAL, after a
// render pass of make_render_pass) into `buffer`, visible to the host after the wait.
void record_readback(VkCommandBuffer cmd, VkImage image, VkBuffer buffer, std::uint32_t width,
                     std::uint32_t height);

// A framebuffer of one attachment.
[[nodiscard]] UniqueFramebuffer make_framebuffer(VkDevice device, VkRenderPass pass,
                                                 VkImageView view, std::uint32_t width,
                                                 std::uint32_t height);
// A 2D colour view of `image`.
[[nodiscard]] UniqueImageView make_image_view(VkDevice device, VkImage image, VkFormat format);

}  // namespace gpuhist::vk
