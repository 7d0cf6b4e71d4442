// The GPU adjuster's whole adjustments: in one submission when the device can
// make the tables, else counted, given tables on the host and applied.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>

#include "adjust/gpu_apply.hpp"
#include "adjust/gpu_layout.hpp"
#include "adjust/recipes.hpp"
#include "gpuhist/statistics.hpp"
#include "vulkan/submission.hpp"

namespace gpuhist::adjust {

bool GpuAdjuster::adjust_on_device(const ImageView& image, const Adjustment& a,
                                   std::span<std::byte> out) {
  const std::optional<TableKind> kind = recipe(a.kind).device_table;
  if (!kind) return false;
  const bool colour = is_colour(image.format.layout);
  const bool clahe = recipe(a.kind).tiled;
  const ClaheOptions options = clahe_options(a);
  const ClaheGeometry g =
      clahe ? clahe_geometry(image, options)
            : whole_image_geometry(image, colour && a.channels == ToneChannels::Each ? 3U : 1U);
  if (!fits(image, g)) return false;
  const std::uint32_t counted = g.tiles_x * g.tiles_y * g.tables;
  const std::uint64_t pixels = std::uint64_t{g.tile_w} * g.tile_h;  // of each counted table

  TableParams tables;
  tables.copies = 1;
  tables.table_count = counted;
  VkDeviceSize table_words = VkDeviceSize{2} * g.size;  // apply_lut.comp's four tables
  ClahePlan plan;
  PlanLayout layout;
  if (clahe) {
    plan = clahe_blend_plan(image, g);
    layout = plan_layout(image, std::size_t{counted} * g.size);
    check_plan(device_, layout, g);
    const ClaheLimits limits = clahe_limits(options, g);
    tables.low = static_cast<std::uint32_t>(std::min<std::int64_t>(limits.clip, 0xFFFFFFFF));
    tables.high = std::bit_cast<std::uint32_t>(limits.scale);
    tables.out_base = static_cast<std::uint32_t>(layout.table_data);
    table_words = layout.words;
    put_axes(plan, layout, static_cast<std::uint32_t*>(host_data(layout.table_data * 4)));
  } else {
    if (!colour) tables.first_out = 3;         // grey samples go through the luminance table
    if (colour && !g.each) tables.copies = 3;  // luminance's table for red, green and blue
  }
  if (a.kind == AdjustKind::Autolevel) {
    tables.low = static_cast<std::uint32_t>(nearest_rank(pixels, a.low));
    tables.high = static_cast<std::uint32_t>(nearest_rank(pixels, 100.0 - a.high));
  }
  if (a.kind == AdjustKind::Match) {
    // The reference's cumulative counts for each counted table, in 32 bits.
    const Histogram& reference = *a.reference;
    auto* below = static_cast<std::uint32_t*>(host_data(VkDeviceSize{4} * counted * g.size));
    std::uint64_t reference_total = 0;
    for (std::uint32_t k = 0; k < counted; ++k) {
      const Channel c = g.each ? static_cast<Channel>(k) : Channel::Luminance;
      const auto counts = reference.counts(reference.has(c) ? c : Channel::Luminance);
      std::uint64_t sum = 0;
      for (std::uint32_t v = 0; v < g.size; ++v) {
        sum += counts[v];
        if (sum > 0xFFFFFFFF) return false;  // the host compares in wider integers
        below[std::size_t{k} * g.size + v] = static_cast<std::uint32_t>(sum);
      }
      if (sum == 0 || (k > 0 && sum != reference_total)) return false;  // the host's error
      reference_total = sum;
    }
    tables.ref_total = static_cast<std::uint32_t>(reference_total);
  }

  vk::ensure_buffer(tables_, device_, table_words * 4, kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    vk::MemoryUse::DeviceLocal);
  // 128 invocations a table, or as many as the device takes up to 1024 and
  // half the bins (each invocation takes an even number of bins).
  const DeviceInfo& info = device_.info();
  const std::uint32_t most =
      std::min({1024U, g.size / 2, info.max_invocations, info.max_workgroup_size[0]});
  std::uint32_t group = 128;
  while (group * 2 <= most) group *= 2;
  const std::array<vk::SpecConstant, 3> constants = {
      vk::SpecConstant{kSpecBins, g.size}, vk::SpecConstant{kSpecLocalX, group},
      vk::SpecConstant{kSpecTableKind, static_cast<std::uint32_t>(*kind)}};
  const VkPipeline make_tables = pipelines_.get(Shader::MakeTables, constants);
  const std::uint32_t colour_tables = colour && !g.each ? 1U : 0U;
  const bool match = a.kind == AdjustKind::Match;
  const VkDeviceSize reference_bytes = VkDeviceSize{4} * counted * g.size;
  if (match) {
    vk::ensure_buffer(reference_, device_, reference_bytes,
                      kStorage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUse::DeviceLocal);
  }
  stage_image(image, g);
  const Prologue prologue = [&](vk::Submission& submission) {
    // The reference read from device memory, not over the bus.
    if (match) submission.copy(data_.get(), reference_.get(), reference_bytes);
    record_count(submission, image, g, colour_tables, a.luma);
    submission.bind({tile_counts_.get(), tables_.get(), (match ? reference_ : tile_counts_).get()});
    if (clahe) submission.copy(data_.get(), tables_.get(), layout.table_data * 4);
    const std::uint32_t across = std::min(counted, max_groups_);
    submission.dispatch(make_tables, tables, across, (counted + across - 1) / across);
    submission.barrier();
  };
  if (clahe) {
    const ClaheParams params = clahe_params(image, plan, layout);
    run_rows(image, image.format, pipeline(Shader::ClaheApply, image.format, 0, 0), tables_,
             &params, out, true, prologue);
  } else {
    run_rows(image, image.format, pipeline(Shader::ApplyLut, image.format, 0, 0), tables_, nullptr,
             out, true, prologue);
  }
  return true;
}

std::optional<std::int32_t> GpuAdjuster::adjust(const ImageView& image,
                                                const Adjustment& adjustment, const Counter& count,
                                                std::span<std::byte> out) {
  check_adjustment(image, adjustment, out.size());
  if (adjust_on_device(image, adjustment, out)) return std::nullopt;
  bool resident = false;  // the counted image stays on the device for its tables
  // A threshold needs luminance alone (see adjust_with).
  const bool luminance_only = recipe(adjustment.kind).luminance_only;
  AdjustBackend backend;
  backend.count = [&](const ImageView& view, const HistogramOptions& options) {
    if (std::optional<Histogram> h = count_resident(view, options.luma, luminance_only)) {
      resident = true;
      return std::move(*h);
    }
    return count(view, options);
  };
  backend.apply_lut = [&](const ImageView& view, const Lut& lut, std::span<std::byte> to) {
    apply(view, lut, to, resident);
  };
  backend.clahe = [&](const ImageView& view, const ClaheOptions& options, std::span<std::byte> to) {
    const HistogramOptions tone = tone_options(view.format, options.luma);
    clahe(
        view, options, [&](const ImageView& tile) { return count(tile, tone); }, to);
  };
  return adjust_with(backend, image, adjustment, out);
}

}  // namespace gpuhist::adjust
