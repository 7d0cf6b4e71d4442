// One call that adjusts an image by its histogram, whatever the adjustment:
// count (one bin per sample value, or per tile for CLAHE), make the tables,
// apply them on the GPU or the CPU. What the adjustment verbs, the annotated
// video and the viewer share.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"

namespace gpuhist {

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
