// The adjustment shaders (src/shaders/apply_lut.comp, clahe_*.comp,
// make_tables.comp), embedded as SPIR-V, and the C++ mirrors of their
// push-constant blocks: one struct per block, field for field (the shader's
// pixelCount is pixel_count here, and so on).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "shaders/spec_ids.hpp"
#include "shaders/table_kinds.h"

namespace gpuhist::adjust {

enum class Shader : std::uint8_t { ApplyLut, ClaheApply, ClaheTiles, MakeTables };

// The shader's SPIR-V words (vk::Pipelines::get finds it by this name).
[[nodiscard]] std::span<const std::uint32_t> shader_code(Shader shader);

// make_tables.comp's KIND (src/shaders/table_kinds.h).
enum class TableKind : std::uint32_t {
  Equalize = TABLE_EQUALIZE,
  Stretch = TABLE_STRETCH,
  Match = TABLE_MATCH,
  Clahe = TABLE_CLAHE,
};

// apply_lut.comp's ApplyParams.
struct ApplyParams {
  std::uint32_t pixel_count = 0;  // pixels in this batch of rows
};
static_assert(sizeof(ApplyParams) == 4);

// clahe_apply.comp's ClaheParams.
struct ClaheParams {
  std::uint32_t pixel_count = 0;   // pixels in this batch of rows
  std::uint32_t width = 0;         // pixels per row
  std::uint32_t first_row = 0;     // the batch's first row in the image
  std::uint32_t row_data = 0;      // offset in `plan` of the rows' words
  std::uint32_t table_data = 0;    // offset in `plan` of the tables
  std::uint32_t tiles_x = 0;       // tiles across
  std::uint32_t lut_channels = 0;  // tables per tile: 3 or 1
};
static_assert(sizeof(ClaheParams) == 28 && offsetof(ClaheParams, lut_channels) == 24);

// clahe_tiles.comp's TileParams.
struct TileParams {
  std::uint32_t width = 0;  // the image's
  std::uint32_t height = 0;
  std::uint32_t tile_width = 0;  // pixels of one tile
  std::uint32_t tile_height = 0;
  std::uint32_t band_groups = 0;  // workgroups sharing the bands of one tile
  std::uint32_t tables = 0;       // tables per tile: 3, 1 or 4
  std::uint32_t band_rows = 0;    // rows of a tile one workgroup counts
};
static_assert(sizeof(TileParams) == 28 && offsetof(TileParams, band_rows) == 24);

// make_tables.comp's TableParams.
struct TableParams {
  std::uint32_t low = 0;          // CLAHE: the clip limit (0: none); stretch: the low rank
  std::uint32_t high = 0;         // CLAHE: float bits of the scale; stretch: the high rank
  std::uint32_t ref_total = 0;    // match: the reference's pixel count
  std::uint32_t out_base = 0;     // word offset of table 0 in Tables
  std::uint32_t first_out = 0;    // the table counted table 0 goes to
  std::uint32_t copies = 0;       // tables each counted table goes to (side by side)
  std::uint32_t table_count = 0;  // counted tables
};
static_assert(sizeof(TableParams) == 28 && offsetof(TableParams, table_count) == 24);

// The largest of the blocks: the size of the adjuster's pipeline layout.
inline constexpr std::uint32_t kPushBytes = 28;
static_assert(sizeof(ClaheParams) <= kPushBytes && sizeof(TileParams) <= kPushBytes &&
              sizeof(TableParams) <= kPushBytes && sizeof(ApplyParams) <= kPushBytes);

}  // namespace gpuhist::adjust
