// What the CPU and the GPU appliers of CLAHE share, computed on the host as
// OpenCV computes it: each tile's tables, and for every column and row the two
// tiles to blend with their weights.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "gpuhist/clahe.hpp"

namespace gpuhist::adjust {

// For each column (or row): the nearer and farther tile index and their
// weights, as OpenCV's CLAHE_Interpolation_Body computes them in floats.
struct ClaheAxis {
  std::vector<std::uint32_t> first, second;
  std::vector<float> first_weight, second_weight;
};

// The blend of four tables' values (a: first row's first and second tile, b:
// second row's), in OpenCV's float operations and order, rounded to even and
// clamped to 0..max. clahe_apply.comp makes the same operations.
[[nodiscard]] inline std::uint32_t blend_values(float a1, float a2, float b1, float b2, float xa1,
                                                float xa, float ya1, float ya, float max) {
  const float res = (a1 * xa1 + a2 * xa) * ya1 + (b1 * xa1 + b2 * xa) * ya;
  // Round to nearest even: exact for 0 <= res < 2^22 (2^23 has no fraction bits).
  const float rounded = (res + 8388608.0f) - 8388608.0f;
  return static_cast<std::uint32_t>(std::clamp(rounded, 0.0f, max));
}

struct ClahePlan {
  std::uint32_t size = 256;        // values per table: 256 or 65536
  std::uint32_t lut_channels = 1;  // tables per tile: 3 (each channel) or 1
  std::uint32_t tiles_x = 1;
  // tables[((tile_y * tiles_x + tile_x) * lut_channels + k) * size + v]
  std::vector<std::uint16_t> tables;
  ClaheAxis columns;  // tile columns
  ClaheAxis rows;     // tile rows

  // The table a sample of channel `channel` (0..2, or 0 for grey) goes through.
  [[nodiscard]] std::uint32_t table_of(std::uint32_t channel) const {
    return lut_channels == 1 ? 0 : channel;
  }
};

// The tiles of `image`, as OpenCV lays them out: over the image extended by
// reflection to whole tiles (both sides grow when either does not divide).
struct ClaheGeometry {
  std::uint32_t tiles_x = 1, tiles_y = 1;
  std::uint32_t tile_w = 1, tile_h = 1;  // pixels of one tile
  bool extended = false;                 // the tiles cover a reflected extension
  std::uint32_t size = 256;              // values per table
  bool each = false;                     // a table per colour channel (else one of luminance)
  std::uint32_t tables = 1;              // tables per tile: 3 or 1
};
// Throws Error(InvalidArgument) for bad options or a bad view.
[[nodiscard]] ClaheGeometry clahe_geometry(const ImageView& image, const ClaheOptions& options);

// The whole image (8- or 16-bit) as one tile with `tables` tables (3: red,
// green and blue each), as the other adjustments count it on the device.
[[nodiscard]] ClaheGeometry whole_image_geometry(const ImageView& image, std::uint32_t tables);

// The clip limit of a tile's counts (0: none) and the scale of its cumulative
// counts, as OpenCV computes them.
struct ClaheLimits {
  std::int64_t clip = 0;
  float scale = 1.0f;
};
[[nodiscard]] ClaheLimits clahe_limits(const ClaheOptions& options, const ClaheGeometry& geometry);

// A plan without its tables: the sizes, and every column's and row's tiles and weights.
[[nodiscard]] ClahePlan clahe_blend_plan(const ImageView& image, const ClaheGeometry& geometry);

// Tile t's counts for table k (R, G, B, or the one luminance or grey table),
// with one bin per value. Asked for in order: every table of tile 0, then
// every table of tile 1, and so on.
using TileCounts = std::function<std::span<const std::uint64_t>(std::uint32_t t, std::uint32_t k)>;

// The plan from the tiles' counts.
[[nodiscard]] ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                                        const ClaheGeometry& geometry, const TileCounts& counts);

// Every tile's counts in one pass over the image on the CPU, rows of tiles
// spread over threads: [tile][table][value], as clahe_tiles.comp counts them.
[[nodiscard]] std::vector<std::uint32_t> count_tiles_cpu(const ImageView& image,
                                                         const ClaheGeometry& geometry,
                                                         LumaWeights luma);

// The plan from counts laid out as count_tiles_cpu (and the GPU) lay them out.
[[nodiscard]] ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                                        const ClaheGeometry& geometry,
                                        std::span<const std::uint32_t> counts);

// Counts the tiles with `count` (on the reflected extension where needed) and
// makes the plan. Throws Error(InvalidArgument) for bad options or a bad view.
[[nodiscard]] ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                                        const TileCounter& count);

}  // namespace gpuhist::adjust
