// One call that adjusts an image by its histogram, whatever the adjustment:
// count (one bin per sample value, or per tile for CLAHE), make the tables,
// apply them on the GPU or the CPU. What the adjustment verbs, the annotated
// video and the viewer share.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpuhist/adjust.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/context.hpp"

namespace gpuhist {

enum class AdjustKind : std::uint8_t { Equalize, Clahe, Autolevel, Threshold, Match };
enum class ThresholdMethod : std::uint8_t { Otsu, Triangle, Fixed };

// "equalize", "clahe", "autolevel", "threshold", "match".
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

// Adjusts `image` into `out` (tightly packed rows of adjusted_format): on the
// context's GPU when `on_gpu` (Context::adjust), else counted on `context`
// with `run` (16-bit CLAHE tiles in one pass on the CPU) and applied on the CPU,
// with the same bytes either way. Returns the threshold used (Threshold only).
// Throws Error(InvalidArgument) for float samples, bad parameters, a short
// `out`, a missing or mismatched reference, or `on_gpu` without a device;
// Error(Device) when the device fails.
std::optional<std::int32_t> adjust_image(const Context& context, const ImageView& image,
                                         const Adjustment& adjustment, std::span<std::byte> out,
                                         const RunOptions& run = {}, bool on_gpu = true);

}  // namespace gpuhist
