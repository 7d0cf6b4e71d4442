// What a histogram counts: the number of bins and the luminance weights.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuhist {

// Luminance weights on the stored (encoded) samples. Rec709 is sRGB relative
// luminance (0.2126, 0.7152, 0.0722); Rec601 is what OpenCV's grey conversion
// uses (0.299, 0.587, 0.114).
enum class LumaWeights : std::uint8_t { Rec709, Rec601 };

inline constexpr std::uint32_t kMinBins = 1;
inline constexpr std::uint32_t kMaxBins = 65536;
inline constexpr std::uint32_t kDefaultBins = 256;

// Parameters shared by every strategy.
struct HistogramOptions {
  std::uint32_t bins = kDefaultBins;  // 1..65536
  LumaWeights luma = LumaWeights::Rec709;
};

// Throws Error(InvalidArgument) when bins is outside 1..65536.
void validate(const HistogramOptions& options);

// "709" / "601" (also "rec709", "rec601"); nullopt for anything else.
[[nodiscard]] std::optional<LumaWeights> parse_luma(std::string_view text);
[[nodiscard]] std::string_view to_string(LumaWeights luma);

}  // namespace gpuhist
