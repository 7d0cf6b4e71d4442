#include "adjust/gpu_apply.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "adjust/gpu_layout.hpp"
#include "core/row_parts.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::adjust {
namespace {

// The least one thread copies of a frame into or out of mapped memory: on the
// H200's host, 1 MiB parts adjusted 1920x1080 and 3840x2160 frames 5-18%
// faster than 4 MiB ones, faster than 512 and 256 KiB ones at 1080p and level
// with them at 4K (docs/PERFORMANCE_JOURNAL.md, "Adjustments", step 6).
constexpr std::uint64_t kCopyPart = std::uint64_t{1} << 20;
constexpr std::uint32_t kGroupSize = 256;

}  // namespace

GpuAdjuster::GpuAdjuster(const vk::Device& device, VkDeviceSize max_batch_bytes,
                         std::uint32_t max_groups)
    : device_(device),
      max_batch_bytes_(max_batch_bytes),
      max_groups_(std::clamp(max_groups, 1U, kMaxGroups)),
      pipelines_(device, kPushBytes) {}

VkPipeline GpuAdjuster::pipeline(Shader shader, PixelFormat format, std::uint32_t luma601,
                                 std::uint32_t target) {
  const std::array<vk::SpecConstant, 5> constants = {
      vk::SpecConstant{kSpecChannels, channel_count(format.layout)},
      vk::SpecConstant{kSpecSampleBits, format.sample == SampleType::U8 ? 8U : 16U},
      vk::SpecConstant{kSpecBins, tone_options(format).bins},
      vk::SpecConstant{kSpecLuma601, luma601}, vk::SpecConstant{kSpecLutTarget, target}};
  return pipelines_.get(shader, constants);
}

void GpuAdjuster::apply(const ImageView& image, const Lut& lut, std::span<std::byte> out,
                        bool resident) {
  validate_lut(image, lut, out.size());
  const std::uint32_t size = tone_options(image.format).bins;
  // The four tables, two 16-bit values a word (little-endian); unused ones zero.
  const VkDeviceSize bytes = VkDeviceSize{2} * size * 4;
  auto* tables = static_cast<std::uint16_t*>(host_data(bytes));
  for (std::size_t c = 0; c < 4; ++c) {
    const std::vector<std::uint16_t>& table = lut.tables[c];
    for (std::uint32_t v = 0; v < size; ++v) tables[c * size + v] = table.empty() ? 0 : table[v];
  }
  const VkPipeline p =
      pipeline(Shader::ApplyLut, image.format, lut.luma == LumaWeights::Rec601 ? 1U : 0U,
               lut.target == LutTarget::Luminance ? 1U : 0U);
  run_rows(image, lut_output_format(image.format, lut), p, tables_, nullptr, out, resident,
           data_to_tables(bytes));
}

bool GpuAdjuster::fits(const ImageView& image, const ClaheGeometry& g) const {
  const VkDeviceSize image_bytes = words_of(image.pixel_count() * pixel_bytes(image.format)) * 4;
  const VkDeviceSize counts_bytes = VkDeviceSize{g.tiles_x} * g.tiles_y * g.tables * g.size * 4;
  // 32-bit counters: a tile of fewer than 2^32 pixels.
  return image_bytes <= batch_limit() && counts_bytes <= batch_limit() &&
         std::uint64_t{g.tile_w} * g.tile_h < (1ULL << 32);
}

void GpuAdjuster::stage_image(const ImageView& image, const ClaheGeometry& g) {
  const VkDeviceSize in_bytes = words_of(image.pixel_count() * pixel_bytes(image.format)) * 4;
  const VkDeviceSize counts_bytes = VkDeviceSize{g.tiles_x} * g.tiles_y * g.tables * g.size * 4;
  vk::ensure_buffer(staging_, device_, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::Upload);
  vk::ensure_buffer(input_, device_, in_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(tile_counts_, device_, counts_bytes,
                    kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::DeviceLocal);
  stage_rows(image, 0, image.height);
}

void GpuAdjuster::record_count(vk::Submission& submission, const ImageView& image,
                               const ClaheGeometry& g, std::uint32_t colour_tables,
                               LumaWeights luma) {
  const VkDeviceSize in_bytes = words_of(image.pixel_count() * pixel_bytes(image.format)) * 4;
  const std::uint32_t tiles = g.tiles_x * g.tiles_y;
  const VkDeviceSize counts_bytes = VkDeviceSize{tiles} * g.tables * g.size * 4;
  const bool shared = image.format.sample == SampleType::U8;
  const std::array<vk::SpecConstant, 7> constants = {
      vk::SpecConstant{kSpecChannels, channel_count(image.format.layout)},
      vk::SpecConstant{kSpecSampleBits, shared ? 8U : 16U},
      vk::SpecConstant{kSpecBins, g.size},
      vk::SpecConstant{kSpecLuma601, luma == LumaWeights::Rec601 ? 1U : 0U},
      vk::SpecConstant{kSpecSharedWords, shared ? 4U * 256U : 1U},
      vk::SpecConstant{kSpecUseShared, shared ? 1U : 0U},
      vk::SpecConstant{kSpecLutTarget, colour_tables}};
  // About 4096 pixels a workgroup.
  const std::uint32_t band_rows = std::max(1U, 4096U / g.tile_w);
  const std::uint32_t bands = (g.tile_h + band_rows - 1) / band_rows;
  // Tiles across by tiles down times the workgroups of a tile's bands, each
  // axis within the 65535 workgroups every device takes.
  const std::uint32_t band_groups = std::clamp(bands, 1U, std::max(1U, max_groups_ / g.tiles_y));
  TileParams params;
  params.width = image.width;
  params.height = image.height;
  params.tile_width = g.tile_w;
  params.tile_height = g.tile_h;
  params.band_groups = band_groups;
  params.tables = g.tables;
  params.band_rows = band_rows;
  submission.bind({input_.get(), tile_counts_.get(), tile_counts_.get()});
  submission.copy(staging_.get(), input_.get(), in_bytes);
  submission.zero(tile_counts_.get(), counts_bytes);
  submission.barrier();
  submission.dispatch(pipelines_.get(Shader::ClaheTiles, constants), params, g.tiles_x,
                      g.tiles_y * band_groups);
  submission.barrier();
}

const std::uint32_t* GpuAdjuster::upload_and_count(const ImageView& image, const ClaheGeometry& g,
                                                   std::uint32_t colour_tables, LumaWeights luma) {
  const VkDeviceSize counts_bytes = VkDeviceSize{g.tiles_x} * g.tiles_y * g.tables * g.size * 4;
  stage_image(image, g);
  vk::ensure_buffer(tile_back_, device_, counts_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);
  vk::Submission submission(device_, pipelines_,
                            {input_.get(), tile_counts_.get(), tile_counts_.get()});
  record_count(submission, image, g, colour_tables, luma);
  submission.copy(tile_counts_.get(), tile_back_.get(), counts_bytes);
  submission.barrier_to_host();
  submission.submit_and_wait();

  return static_cast<const std::uint32_t*>(tile_back_.mapped());
}

std::optional<Histogram> GpuAdjuster::count_resident(const ImageView& image, LumaWeights luma,
                                                     bool luminance_only) {
  // The whole image as one tile, with all four tables for colour, or luminance's.
  const bool colour = is_colour(image.format.layout) && !luminance_only;
  const ClaheGeometry g = whole_image_geometry(image, colour ? 4U : 1U);
  if (!fits(image, g)) return std::nullopt;
  // clahe_tiles.comp's COLOUR_TABLES: all four, luminance alone, or grey samples.
  const std::uint32_t tables = colour ? 2U : is_colour(image.format.layout) ? 1U : 0U;
  const std::uint32_t* counts = upload_and_count(image, g, tables, luma);
  Histogram h(g.size, colour);
  const auto fill = [&](Channel c, std::uint32_t table) {
    const std::uint32_t* from = counts + std::size_t{table} * g.size;
    std::copy(from, from + g.size, h.counts(c).begin());
  };
  if (colour) {
    for (std::uint32_t k = 0; k < 4; ++k) fill(static_cast<Channel>(k), k);
  } else {
    fill(Channel::Luminance, 0);
  }
  return h;
}

void GpuAdjuster::clahe(const ImageView& image, const ClaheOptions& options,
                        const TileCounter& count, std::span<std::byte> out) {
  const ClaheGeometry g = clahe_geometry(image, options);
  if (out.size() < image.pixel_count() * pixel_bytes(image.format)) {
    throw Error(ErrorKind::InvalidArgument, "the output is shorter than the image");
  }
  const PlanLayout layout =
      plan_layout(image, std::size_t{g.tiles_x} * g.tiles_y * g.tables * g.size);
  check_plan(device_, layout, g);
  const ClahePlan plan = make_clahe_plan(image, options, count);
  auto* data = static_cast<std::uint32_t*>(host_data(layout.words * 4));
  put_axes(plan, layout, data);
  std::memset(data + layout.table_data, 0, words_of(plan.tables.size() * 2) * 4);
  std::memcpy(data + layout.table_data, plan.tables.data(),
              plan.tables.size() * 2);  // little-endian
  const ClaheParams params = clahe_params(image, plan, layout);
  run_rows(image, image.format, pipeline(Shader::ClaheApply, image.format, 0, 0), tables_, &params,
           out, false, data_to_tables(layout.words * 4));
}

void* GpuAdjuster::host_data(VkDeviceSize bytes) {
  vk::ensure_buffer(data_, device_, bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::Upload);
  return data_.mapped();
}

GpuAdjuster::Prologue GpuAdjuster::data_to_tables(VkDeviceSize bytes) {
  vk::ensure_buffer(tables_, device_, bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::DeviceLocal);
  return [this, bytes](vk::Submission& submission) {
    submission.copy(data_.get(), tables_.get(), bytes);
    submission.barrier();
  };
}

VkDeviceSize GpuAdjuster::batch_limit() const {
  return std::min<VkDeviceSize>(max_batch_bytes_, device_.info().max_storage_buffer_range) &
         ~VkDeviceSize{3};
}

void GpuAdjuster::stage_rows(const ImageView& image, std::uint32_t y0, std::uint32_t count) {
  // Rows copied in parts of at least kCopyPart, each on its own thread: one
  // thread alone copies into upload memory at a fraction of the bus's rate.
  const std::size_t row = std::size_t{image.width} * pixel_bytes(image.format);
  auto* staged = static_cast<std::byte*>(staging_.mapped());
  for_row_parts(count, row_parts(count, kCopyPart / row + 1),
                [&](std::uint32_t, std::uint32_t a, std::uint32_t b) {
                  for (std::uint32_t y = a; y < b; ++y) {
                    std::memcpy(staged + std::size_t{y} * row, image.row(y0 + y), row);
                  }
                });
}

void GpuAdjuster::run_rows(const ImageView& image, PixelFormat out_format, VkPipeline pipeline,
                           const vk::Buffer& data, const ClaheParams* clahe,
                           std::span<std::byte> out, bool resident, const Prologue& prologue) {
  // Rows per batch: each pixel buffer within the storage range and the batch size.
  const std::size_t in_row = std::size_t{image.width} * pixel_bytes(image.format);
  const std::size_t out_row = std::size_t{image.width} * pixel_bytes(out_format);
  const VkDeviceSize limit = batch_limit();
  if (in_row > limit || out_row > limit) {
    throw Error(ErrorKind::InvalidArgument,
                "a row of this image is larger than the device's storage buffers");
  }
  const auto rows = static_cast<std::uint32_t>(
      std::clamp<VkDeviceSize>(limit / std::max(in_row, out_row), 1, image.height));
  const VkDeviceSize in_bytes = words_of(VkDeviceSize{rows} * in_row) * 4;
  const VkDeviceSize out_bytes = words_of(VkDeviceSize{rows} * out_row) * 4;
  vk::ensure_buffer(staging_, device_, in_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::Upload);
  vk::ensure_buffer(input_, device_, in_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(output_, device_, out_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                    vk::MemoryUse::DeviceLocal);
  vk::ensure_buffer(readback_, device_, out_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::Readback);

  for (std::uint32_t y0 = 0; y0 < image.height; y0 += rows) {
    const std::uint32_t count = std::min(rows, image.height - y0);
    const bool uploaded = resident && count == image.height;
    if (!uploaded) stage_rows(image, y0, count);
    const VkDeviceSize batch_out = words_of(VkDeviceSize{count} * out_row) * 4;
    vk::Submission submission(device_, pipelines_, {input_.get(), output_.get(), data.get()});
    if (prologue && y0 == 0) {
      prologue(submission);
      submission.bind({input_.get(), output_.get(), data.get()});
    }
    if (!uploaded) {
      submission.copy(staging_.get(), input_.get(), words_of(VkDeviceSize{count} * in_row) * 4);
      submission.barrier();
    }
    const auto groups = static_cast<std::uint32_t>(
        std::clamp<VkDeviceSize>((batch_out / 4 + kGroupSize - 1) / kGroupSize, 1, max_groups_));
    if (clahe != nullptr) {
      ClaheParams params = *clahe;
      params.pixel_count = count * image.width;
      params.first_row = y0;
      submission.dispatch(pipeline, params, groups);
    } else {
      submission.dispatch(pipeline, ApplyParams{count * image.width}, groups);
    }
    submission.barrier();
    submission.copy(output_.get(), readback_.get(), batch_out);
    submission.barrier_to_host();
    submission.submit_and_wait();
    const auto* back = static_cast<const std::byte*>(readback_.mapped());
    for_row_parts(count, row_parts(count, kCopyPart / out_row + 1),
                  [&](std::uint32_t, std::uint32_t a, std::uint32_t b) {
                    std::memcpy(out.data() + (std::size_t{y0} + a) * out_row,
                                back + std::size_t{a} * out_row, std::size_t{b - a} * out_row);
                  });
  }
}

}  // namespace gpuhist::adjust
