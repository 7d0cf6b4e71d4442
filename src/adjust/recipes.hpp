// How each adjustment is made, one row per kind (the public rows are
// gpuhist::kAdjustments): what it counts, the table the host makes from the
// counts, and the table kind make_tables.comp makes on a device. Adding an
// adjustment adds a row here, one in kAdjustments, and its table functions.
#pragma once

#include <cstdint>
#include <optional>

#include "adjust/shaders.hpp"
#include "gpuhist/adjust.hpp"
#include "gpuhist/adjustment.hpp"

namespace gpuhist::adjust {

struct Recipe {
  AdjustKind kind;
  // Counts the luminance alone (the device counts nothing else for it).
  bool luminance_only = false;
  // Counted and given tables tile by tile (CLAHE), not from one histogram.
  bool tiled = false;
  // The table from the image's histogram (one bin per sample value); sets
  // `threshold` where the adjustment picks one. Not used for tiled ones.
  Lut (*host_table)(const Histogram& histogram, PixelFormat format, const Adjustment& adjustment,
                    std::optional<std::int32_t>& threshold) = nullptr;
  // What make_tables.comp makes for it on a device; nullopt: the host makes
  // its table (a threshold picked from the whole histogram).
  std::optional<TableKind> device_table;
};

// The row of `kind`.
[[nodiscard]] const Recipe& recipe(AdjustKind kind);

}  // namespace gpuhist::adjust
