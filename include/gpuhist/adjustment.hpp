// The adjustments made from a histogram (equalize, clahe, autolevel,
// threshold, match) and their parameters; adjust_image.hpp runs one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpuhist/adjust.hpp"
#include "gpuhist/clahe.hpp"

namespace gpuhist {

enum class AdjustKind : std::uint8_t { Equalize, Clahe, Autolevel, Threshold, Match };
enum class ThresholdMethod : std::uint8_t { Otsu, Triangle, Fixed };

// What each adjustment is, one row per kind in AdjustKind's order: its name
// (the command-line verb and --adjust value), a one-line summary, whether it
// needs a reference, and whether the viewer's `a` key cycles to it. The
// command line, the viewer and the library read this table; the tables each
// adjustment makes are in src/adjust/recipes.cpp.
struct AdjustmentInfo {
  AdjustKind kind;
  std::string_view name;
  std::string_view summary;
  bool needs_reference = false;
  bool in_viewer = true;
};
inline constexpr std::array<AdjustmentInfo, 5> kAdjustments = {{
    {AdjustKind::Equalize, "equalize", "Equalise an image's histogram"},
    {AdjustKind::Clahe, "clahe",
     "Contrast-limited adaptive histogram equalisation (CLAHE), tile by tile"},
    {AdjustKind::Autolevel, "autolevel",
     "Stretch an image's contrast, clipping a share of the darkest and brightest pixels"},
    {AdjustKind::Threshold, "threshold",
     "Binarise an image's luminance at Otsu's, the triangle or a given threshold"},
    {AdjustKind::Match, "match", "Match an image's histogram to a reference image's", true},
}};

// True when `rows` (of anything with a `kind`) hold one row per AdjustKind, in its order.
template <class Rows>
[[nodiscard]] constexpr bool one_row_per_kind(const Rows& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (static_cast<std::size_t>(rows[i].kind) != i) return false;
  }
  return rows.size() == 5;
}
static_assert(one_row_per_kind(kAdjustments), "kAdjustments: one row per AdjustKind, in order");

// The row of `kind`; Error(InvalidArgument) for a value no AdjustKind has.
[[nodiscard]] const AdjustmentInfo& info(AdjustKind kind);
// The name: "equalize", "clahe", "autolevel", "threshold", "match".
[[nodiscard]] std::string_view to_string(AdjustKind kind);
[[nodiscard]] std::optional<AdjustKind> parse_adjust_kind(std::string_view name);

struct Adjustment {
  AdjustKind kind = AdjustKind::Equalize;
  ToneChannels channels = ToneChannels::Luminance;
  LumaWeights luma = LumaWeights::Rec709;
  double low = 0.5, high = 0.5;            // Autolevel: percent clipped to black and to white
  std::uint32_t tiles_x = 8, tiles_y = 8;  // Clahe
  double clip_limit = 2.0;                 // Clahe
  ThresholdMethod method = ThresholdMethod::Otsu;
  std::int32_t threshold = 0;            // Threshold with ThresholdMethod::Fixed
  const Histogram* reference = nullptr;  // Match: counted with tone_options, same bit depth
};

// The format of the adjusted pixels: grey for Threshold, else the image's.
[[nodiscard]] PixelFormat adjusted_format(PixelFormat format, const Adjustment& adjustment);

}  // namespace gpuhist
