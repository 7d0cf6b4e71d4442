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

// Parameters shared by every strategy. With N bins, an integer sample v of
// maximum M (255 for 8-bit, 65535 for 16-bit) falls in bin min(v * N / M, N - 1)
// (integer division; so 256 bins of 8-bit samples are one bin a value, and
// v * N / 256 is not the rule); a float sample, clamped to [0, 1] with NaN as 0,
// in min(uint(float(v * N)), N - 1). Luminance is (wr*r + wg*g + wb*b) of the
// weights below (integers summing to 10000 for integer samples, binned as
// min(sum * N / (10000 * M), N - 1) in 64 bits; floats in float arithmetic),
// then binned alike. Every strategy and device gives the same counts.
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
