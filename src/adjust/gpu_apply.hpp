// Tables applied on a Vulkan device (src/shaders/apply_lut.comp), in batches
// of rows that keep each buffer within the device's storage-buffer range.
#pragma once

#include <span>

#include "gpuhist/adjust.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {
class Device;
}

namespace gpuhist::adjust {

class GpuLutApplier {
 public:
  explicit GpuLutApplier(const vk::Device& device);

  // As apply_lut_cpu, with the same bytes. Throws Error(InvalidArgument) as it
  // does, Error(Device) when the device fails.
  void apply(const ImageView& image, const Lut& lut, std::span<std::byte> out);

 private:
  const vk::Device& device_;
  vk::Pipelines pipelines_;
  vk::Buffer tables_;   // four tables of 32-bit values, uploaded per call
  vk::Buffer staging_;  // rows of a batch, packed
  vk::Buffer input_;    // the same, on the device
  vk::Buffer output_;   // the batch's output samples, on the device
  vk::Buffer readback_;
};

}  // namespace gpuhist::adjust
