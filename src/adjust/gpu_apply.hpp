// Adjustments applied on a Vulkan device: lookup tables (apply_lut.comp) and
// CLAHE's blend (clahe_apply.comp), in batches of rows that keep each buffer
// within the device's storage-buffer range.
#pragma once

#include <functional>
#include <span>

#include "adjust/clahe_plan.hpp"
#include "gpuhist/adjust.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::adjust {

class GpuAdjuster {
 public:
  explicit GpuAdjuster(const vk::Device& device);

  // As apply_lut_cpu, with the same bytes. Throws Error(InvalidArgument) as it
  // does, Error(Device) when the device fails.
  void apply(const ImageView& image, const Lut& lut, std::span<std::byte> out);

  // CLAHE's blend of `plan` (made for `image`), the same bytes as clahe_cpu.
  // Throws Error(InvalidArgument) when the plan's tables exceed the device's
  // storage-buffer range, Error(Device) when the device fails.
  void clahe(const ImageView& image, const ClahePlan& plan, std::span<std::byte> out);

 private:
  // Runs `pipeline` over the image in batches of rows, `data` at binding 2;
  // `params` fills the push constants of a batch (its pixels and first row set).
  void run_rows(const ImageView& image, PixelFormat out_format, VkPipeline pipeline,
                const vk::Buffer& data, vk::PushParams params, std::span<std::byte> out);
  [[nodiscard]] VkPipeline pipeline(vk::Shader shader, PixelFormat format, std::uint32_t luma601,
                                    std::uint32_t target);

  const vk::Device& device_;
  vk::Pipelines pipelines_;
  vk::Buffer data_;     // tables (and CLAHE's axes), uploaded per call
  vk::Buffer staging_;  // rows of a batch, packed
  vk::Buffer input_;    // the same, on the device
  vk::Buffer output_;   // the batch's output samples, on the device
  vk::Buffer readback_;
};

}  // namespace gpuhist::adjust
