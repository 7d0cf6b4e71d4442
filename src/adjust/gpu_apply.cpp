#include "adjust/gpu_apply.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::adjust {
namespace {

constexpr VkDeviceSize kBatchBytes = VkDeviceSize{64} << 20;  // at most, per buffer
constexpr std::uint32_t kGroupSize = 256;
constexpr std::uint32_t kMaxGroups = 65535;
constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

}  // namespace

GpuLutApplier::GpuLutApplier(const vk::Device& device) : device_(device), pipelines_(device) {}

void GpuLutApplier::apply(const ImageView& image, const Lut& lut, std::span<std::byte> out) {
  validate_lut(image, lut, out.size());
  const PixelFormat format = image.format;
  const PixelFormat out_format = lut_output_format(format, lut);
  const std::uint32_t size = format.sample == SampleType::U8 ? 256U : 65536U;

  // The tables, widened to 32 bits; unused ones stay zero.
  const VkDeviceSize table_bytes = VkDeviceSize{4} * size * 4;
  vk::ensure_buffer(tables_, device_, table_bytes, kStorage, vk::MemoryUse::Upload);
  auto* tables = static_cast<std::uint32_t*>(tables_.mapped());
  for (std::size_t c = 0; c < 4; ++c) {
    const std::vector<std::uint16_t>& table = lut.tables[c];
    for (std::uint32_t v = 0; v < size; ++v) tables[c * size + v] = table.empty() ? 0 : table[v];
  }

  // Rows per batch: each buffer within the storage range and the batch size.
  const std::size_t in_row = std::size_t{image.width} * pixel_bytes(format);
  const std::size_t out_row = std::size_t{image.width} * pixel_bytes(out_format);
  const VkDeviceSize limit =
      std::min<VkDeviceSize>(kBatchBytes, device_.info().max_storage_buffer_range) &
      ~VkDeviceSize{3};
  const auto rows = static_cast<std::uint32_t>(
      std::clamp<VkDeviceSize>(limit / std::max(in_row, out_row), 1, image.height));
  const VkDeviceSize in_bytes = (VkDeviceSize{rows} * in_row + 3) & ~VkDeviceSize{3};
  const VkDeviceSize out_bytes = (VkDeviceSize{rows} * out_row + 3) & ~VkDeviceSize{3};
  if (in_row > limit || out_row > limit) {
    throw Error(ErrorKind::InvalidArgument,
                "a row of this image is larger than the device's "
                "storage buffers");
  }
  vk::ensure_buffer(staging_, device_, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::Upload);
  vk::ensure_buffer(input_, device_, in_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(output_, device_, out_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(readback_, device_, out_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);

  const std::array<vk::SpecConstant, 5> constants = {
      vk::SpecConstant{vk::kSpecChannels, channel_count(format.layout)},
      vk::SpecConstant{vk::kSpecSampleBits, format.sample == SampleType::U8 ? 8U : 16U},
      vk::SpecConstant{vk::kSpecBins, size},
      vk::SpecConstant{vk::kSpecLuma601, lut.luma == LumaWeights::Rec601 ? 1U : 0U},
      vk::SpecConstant{vk::kSpecLutTarget, lut.target == LutTarget::Luminance ? 1U : 0U}};
  const VkPipeline pipeline = pipelines_.get(vk::Shader::ApplyLut, constants);

  for (std::uint32_t y0 = 0; y0 < image.height; y0 += rows) {
    const std::uint32_t count = std::min(rows, image.height - y0);
    auto* staged = static_cast<std::byte*>(staging_.mapped());
    for (std::uint32_t y = 0; y < count; ++y) {
      std::memcpy(staged + std::size_t{y} * in_row, image.row(y0 + y), in_row);
    }
    const VkDeviceSize batch_in = (VkDeviceSize{count} * in_row + 3) & ~VkDeviceSize{3};
    const VkDeviceSize batch_out = (VkDeviceSize{count} * out_row + 3) & ~VkDeviceSize{3};
    vk::Submission submission(device_, pipelines_, {input_.get(), output_.get(), tables_.get()});
    submission.copy(staging_.get(), input_.get(), batch_in);
    submission.barrier();
    vk::PushParams params;
    params.pixel_count = count * image.width;
    const VkDeviceSize words = batch_out / 4;
    const auto groups = static_cast<std::uint32_t>(
        std::clamp<VkDeviceSize>((words + kGroupSize - 1) / kGroupSize, 1, kMaxGroups));
    submission.dispatch(pipeline, params, groups);
    submission.barrier();
    submission.copy(output_.get(), readback_.get(), batch_out);
    submission.barrier_to_host();
    submission.submit_and_wait();
    std::memcpy(out.data() + std::size_t{y0} * out_row, readback_.mapped(), count * out_row);
  }
}

}  // namespace gpuhist::adjust
