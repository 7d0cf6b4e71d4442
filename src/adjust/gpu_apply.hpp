// Adjustments on a Vulkan device: an image that fits one buffer is uploaded,
// counted (clahe_tiles.comp), given its tables (make_tables.comp) and adjusted
// (apply_lut.comp, clahe_apply.comp) in one submission; larger ones are
// counted in parts, given tables on the host and adjusted in batches of rows
// that keep each buffer within the device's storage-buffer range.
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "adjust/adjust_backend.hpp"
#include "adjust/clahe_plan.hpp"
#include "adjust/shaders.hpp"
#include "gpuhist/adjust.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::vk {
class Device;
class Submission;
}  // namespace gpuhist::vk

namespace gpuhist::adjust {

class GpuAdjuster {
 public:
  // Pixel buffers hold at most `max_batch_bytes` (and the device's storage
  // range); larger images go in batches of rows. A dispatch takes at most
  // `max_groups` workgroups along an axis (65535: what every device takes;
  // tests take fewer, to drive the loops that cover the rest).
  explicit GpuAdjuster(const vk::Device& device,
                       VkDeviceSize max_batch_bytes = VkDeviceSize{512} << 20,
                       std::uint32_t max_groups = 65535);

  // adjust_image with the tables applied here. An image that fits one buffer
  // is adjusted wholly on the device in one submission (adjust_on_device);
  // Otsu's and the triangle thresholds, made on the host from the counts, have
  // it counted here in one pass (count_resident) and not uploaded again.
  // Otherwise `count` counts it (and CLAHE's tiles) and the host makes the tables.
  std::optional<std::int32_t> adjust(const ImageView& image, const Adjustment& adjustment,
                                     const Counter& count, std::span<std::byte> out);

  // The whole adjustment in one submission: upload, count, tables made on the
  // device, applied, read back. False, with nothing done, when the image does
  // not fit one buffer or its tables need the host (Otsu's and the triangle
  // thresholds; a reference of 2^32 pixels or more). Checks nothing that
  // check_adjustment checks.
  bool adjust_on_device(const ImageView& image, const Adjustment& adjustment,
                        std::span<std::byte> out);

  // The histogram of `image` with one bin per sample value (R, G, B and L, or
  // L for grey; with `luminance_only`, a grey histogram of L alone), counted on
  // the device in one pass, the image left resident for apply(..., resident =
  // true); nullopt when it does not fit one buffer.
  [[nodiscard]] std::optional<Histogram> count_resident(const ImageView& image, LumaWeights luma,
                                                        bool luminance_only = false);

  // As apply_lut_cpu, with the same bytes. `resident`: the image is the one
  // count_resident just counted, not uploaded again. Throws
  // Error(InvalidArgument) as apply_lut_cpu does, Error(Device) when the device fails.
  void apply(const ImageView& image, const Lut& lut, std::span<std::byte> out,
             bool resident = false);

  // CLAHE, the same bytes as clahe_cpu, for images adjust_on_device does not
  // take: `count` counts each tile, the host makes the tables, the device
  // blends them. Throws Error(InvalidArgument) when the tables exceed the
  // device's storage-buffer range, Error(Device) when the device fails.
  void clahe(const ImageView& image, const ClaheOptions& options, const TileCounter& count,
             std::span<std::byte> out);

 private:
  // Commands recorded before the first batch's dispatch, in its submission.
  using Prologue = std::function<void(vk::Submission&)>;

  // Runs `pipeline` over the image in batches of rows, `data` at binding 2:
  // clahe_apply.comp with `clahe`'s push constants (each batch's pixels and
  // first row set), else apply_lut.comp.
  // `resident`: the whole image is in input_ already (one batch), or will be
  // once `prologue` has run.
  void run_rows(const ImageView& image, PixelFormat out_format, VkPipeline pipeline,
                const vk::Buffer& data, const ClaheParams* clahe, std::span<std::byte> out,
                bool resident = false, const Prologue& prologue = {});
  // data_ holding at least `bytes`, mapped, for the host to write.
  [[nodiscard]] void* host_data(VkDeviceSize bytes);
  // Makes tables_ hold `bytes` and returns a prologue copying that much of
  // data_ into it: the shaders read tables from device memory, not over the bus.
  [[nodiscard]] Prologue data_to_tables(VkDeviceSize bytes);
  // The largest buffer of pixels one batch may use.
  [[nodiscard]] VkDeviceSize batch_limit() const;
  // Copies rows [y0, y0 + count) of `image` into staging_, tightly packed.
  void stage_rows(const ImageView& image, std::uint32_t y0, std::uint32_t count);
  // Stages the whole image for record_count, and makes its buffers.
  void stage_image(const ImageView& image, const ClaheGeometry& geometry);
  // Records the staged image's upload into input_ and the counting of its
  // tiles into tile_counts_ (clahe_tiles.comp; `colour_tables` as its
  // COLOUR_TABLES), [tile][table][value].
  void record_count(vk::Submission& submission, const ImageView& image,
                    const ClaheGeometry& geometry, std::uint32_t colour_tables, LumaWeights luma);
  // stage_image and record_count, submitted; the counts in host memory until
  // the next call.
  [[nodiscard]] const std::uint32_t* upload_and_count(const ImageView& image,
                                                      const ClaheGeometry& geometry,
                                                      std::uint32_t colour_tables,
                                                      LumaWeights luma);
  // Whether an image (and its counters) fits one buffer.
  [[nodiscard]] bool fits(const ImageView& image, const ClaheGeometry& geometry) const;
  [[nodiscard]] VkPipeline pipeline(Shader shader, PixelFormat format, std::uint32_t luma601,
                                    std::uint32_t target);

  const vk::Device& device_;
  VkDeviceSize max_batch_bytes_;
  std::uint32_t max_groups_;
  vk::Pipelines pipelines_;
  vk::Buffer data_;     // tables (and CLAHE's axes), or a reference, written by the host per call
  vk::Buffer staging_;  // rows of a batch, packed
  vk::Buffer input_;    // the same, on the device
  vk::Buffer output_;   // the batch's output samples, on the device
  vk::Buffer readback_;
  vk::Buffer tile_counts_;  // CLAHE's tile histograms, on the device
  vk::Buffer tile_back_;    // the same, for the host
  vk::Buffer tables_;       // the tables (after CLAHE's axes) in device memory
  vk::Buffer reference_;    // a reference's cumulative counts in device memory
};

}  // namespace gpuhist::adjust
