// The overlay on the GPU: the scale pass, then one full-screen triangle whose
// fragment shader (src/shaders/overlay.frag) samples the frame to cover the
// target and draws both histogram panels over it. Renders into any framebuffer
// of its render pass: an off-screen picture read back (draw) or a swapchain
// image (record). Equal, byte for byte, to draw_overlay_cpu.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "gpuhist/histogram.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/render.hpp"
#include "render/scaled_draw.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/builders.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::render {

class OverlayRenderer {
 public:
  // A renderer for targets of `format` left in `final_layout` (TRANSFER_SRC
  // for draw(), PRESENT_SRC for a swapchain). Throws Error(Device).
  OverlayRenderer(const vk::Device& device, VkFormat format, VkImageLayout final_layout);

  [[nodiscard]] VkRenderPass render_pass() const noexcept { return passes_.render_pass(); }

  // Copies the frame, its histogram and the cover tables for a width x height
  // target where the GPU reads them. The GPU must not be drawing a previous
  // frame. Throws Error(InvalidArgument) for a frame that is not 8- or 16-bit RGB.
  // Pixels aspect_num:aspect_den wide over high (an anamorphic video's; 0:1
  // or 1:1 square) cover the target as they are shown.
  void set_frame(const ImageView& frame, const Histogram& histogram, std::uint32_t width,
                 std::uint32_t height, std::uint32_t aspect_num = 1, std::uint32_t aspect_den = 1);

  // Records the scale pass and the drawing of the last set_frame into `framebuffer`.
  void record(VkCommandBuffer cmd, VkFramebuffer framebuffer, const OverlayStyle& style);

  // set_frame, then draws off-screen and reads the picture back.
  [[nodiscard]] Picture draw(const ImageView& frame, const Histogram& histogram,
                             std::uint32_t width, std::uint32_t height, const OverlayStyle& style);

 private:
  const vk::Device& device_;
  ScaledDraw passes_;
  vk::Buffer counts_;   // bins * 4 counters, host-written
  vk::Buffer frame_;    // the frame's rows, tightly packed, host-written
  vk::Buffer map_;      // cover tables: byte offsets of target columns, then rows
  vk::StorageSet set_;  // the four buffers, rebuilt by set_frame
  std::uint32_t width_ = 0, height_ = 0, bins_ = 0, sample_step_ = 1;
  bool colour_ = true;  // a grey picture's histogram draws its luminance in both panels
};

}  // namespace gpuhist::render
