#include "adjust/recipes.hpp"

#include <array>

#include "gpuhist/statistics.hpp"

namespace gpuhist::adjust {
namespace {

Lut equalize(const Histogram& h, PixelFormat format, const Adjustment& a,
             std::optional<std::int32_t>&) {
  return equalize_lut(h, format, a.channels);
}

Lut stretch(const Histogram& h, PixelFormat format, const Adjustment& a,
            std::optional<std::int32_t>&) {
  return stretch_lut(h, format, a.channels, a.low, a.high);
}

Lut threshold(const Histogram& h, PixelFormat format, const Adjustment& a,
              std::optional<std::int32_t>& threshold) {
  const auto counts = h.counts(Channel::Luminance);
  threshold =
      a.method == ThresholdMethod::Otsu ? otsu_threshold(counts) : triangle_threshold(counts);
  return threshold_lut(format, *threshold, a.luma);
}

Lut match(const Histogram& h, PixelFormat format, const Adjustment& a,
          std::optional<std::int32_t>&) {
  return match_lut(h, *a.reference, format, a.channels);
}

constexpr std::array<Recipe, 5> kRecipes = {{
    {AdjustKind::Equalize, false, false, equalize, TableKind::Equalize},
    {AdjustKind::Clahe, false, true, nullptr, TableKind::Clahe},
    {AdjustKind::Autolevel, false, false, stretch, TableKind::Stretch},
    {AdjustKind::Threshold, true, false, threshold, std::nullopt},
    {AdjustKind::Match, false, false, match, TableKind::Match},
}};
static_assert(one_row_per_kind(kRecipes), "kRecipes: one row per AdjustKind, in order");

}  // namespace

const Recipe& recipe(AdjustKind kind) { return kRecipes[static_cast<std::size_t>(kind)]; }

}  // namespace gpuhist::adjust
