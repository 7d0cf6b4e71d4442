// The GPU renderer: a compute pass finds each channel's scale, then one
// triangle covers an off-screen picture and the fragment shader draws the bars
// (src/shaders/hist_draw.frag). The picture is read back as RGBA8.
#pragma once

#include "gpuhist/histogram.hpp"
#include "gpuhist/render.hpp"
#include "render/scaled_draw.hpp"
#include "vulkan/buffer.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::render {

class GpuRenderer {
 public:
  // Builds the pipelines. Throws Error(Device) when the device cannot.
  explicit GpuRenderer(const vk::Device& device);

  // Draws a histogram; identical to draw_cpu for the same histogram and options.
  [[nodiscard]] Picture draw(const Histogram& histogram, const DrawOptions& options);

 private:
  const vk::Device& device_;
  ScaledDraw passes_;
  vk::Buffer counts_;  // bins * 4 counters, host-written
};

}  // namespace gpuhist::render
