// What the GPU adjuster's files share: limits of a dispatch, and where
// clahe_apply.comp finds its columns, rows and tables.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include <vulkan/vulkan.h>

#include "adjust/clahe_plan.hpp"
#include "adjust/shaders.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_view.hpp"
#include "vulkan/device.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::adjust {

inline constexpr std::uint32_t kMaxGroups = 65535;  // along one axis, on every device
inline constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

inline VkDeviceSize words_of(VkDeviceSize bytes) { return (bytes + 3) / 4; }

// Where clahe_apply.comp finds its data, in words: the columns, then the rows,
// four words each; then the tables, two values a word.
struct PlanLayout {
  VkDeviceSize row_data = 0;
  VkDeviceSize table_data = 0;
  VkDeviceSize words = 0;
};

inline PlanLayout plan_layout(const ImageView& image, std::size_t table_values) {
  PlanLayout layout;
  layout.row_data = VkDeviceSize{4} * image.width;
  layout.table_data = layout.row_data + VkDeviceSize{4} * image.height;
  layout.words = layout.table_data + words_of(VkDeviceSize{table_values} * 2);
  return layout;
}

// Throws Error(InvalidArgument) when the data laid out as `layout` for the
// tiles of `g` exceed what the device's shaders can read, naming the device's
// limit and the most tiles of this image that fit it.
inline void check_plan(const vk::Device& device, const PlanLayout& layout, const ClaheGeometry& g) {
  const VkDeviceSize limit = device.info().max_storage_buffer_range;
  const VkDeviceSize bytes = layout.words * 4;
  if (bytes <= limit) return;
  // Each tile's tables take `tables * size` values, two a word.
  const VkDeviceSize tile_bytes = VkDeviceSize{g.tables} * g.size * 2;
  const VkDeviceSize axes = layout.table_data * 4;
  const VkDeviceSize most = limit > axes ? (limit - axes) / tile_bytes : 0;
  throw Error(ErrorKind::InvalidArgument,
              "the CLAHE tables of " + std::to_string(g.tiles_x) + "x" + std::to_string(g.tiles_y) +
                  " tiles (" + std::to_string(bytes) + " bytes) exceed the " +
                  std::to_string(limit) + " bytes the device's shaders can read (" +
                  std::to_string(most) +
                  " tiles at most of this image there); use fewer tiles, or the CPU");
}

// Writes the plan's columns and rows where `layout` puts them.
inline void put_axes(const ClahePlan& plan, const PlanLayout& layout, std::uint32_t* data) {
  const auto put_axis = [](const ClaheAxis& axis, std::uint32_t* at) {
    for (std::size_t i = 0; i < axis.first.size(); ++i, at += 4) {
      at[0] = axis.first[i];
      at[1] = axis.second[i];
      at[2] = std::bit_cast<std::uint32_t>(axis.first_weight[i]);
      at[3] = std::bit_cast<std::uint32_t>(axis.second_weight[i]);
    }
  };
  put_axis(plan.columns, data);
  put_axis(plan.rows, data + layout.row_data);
}

// clahe_apply.comp's ClaheParams, less each batch's pixels and first row.
inline ClaheParams clahe_params(const ImageView& image, const ClahePlan& plan,
                                const PlanLayout& layout) {
  ClaheParams params;
  params.width = image.width;
  params.row_data = static_cast<std::uint32_t>(layout.row_data);
  params.table_data = static_cast<std::uint32_t>(layout.table_data);
  params.tiles_x = plan.tiles_x;
  params.lut_channels = plan.lut_channels;
  return params;
}

}  // namespace gpuhist::adjust
