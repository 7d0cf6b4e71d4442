#include "gpuhist/adjust_image.hpp"

#include <string>

#include "adjust/adjust_backend.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {

std::optional<std::int32_t> adjust_image(const Context& context, const ImageView& image,
                                         const Adjustment& a, std::span<std::byte> out,
                                         const RunOptions& run, bool on_gpu) {
  // A level past the largest sample would make the image one value: refused,
  // as every verb refuses it (the viewer meets it here).
  if (a.kind == AdjustKind::Threshold && a.method == ThresholdMethod::Fixed) {
    const std::int32_t largest = image.format.sample == SampleType::U8 ? 255 : 65535;
    if (a.threshold < -1 || a.threshold > largest) {
      throw Error(ErrorKind::InvalidArgument, "a threshold of " + std::to_string(a.threshold) +
                                                  " is outside -1 to " + std::to_string(largest) +
                                                  ", the largest " + (largest == 255 ? "8" : "16") +
                                                  "-bit sample value");
    }
  }
  if (on_gpu) return context.adjust(image, a, out, run);
  adjust::AdjustBackend backend;
  backend.count = [&](const ImageView& view, const HistogramOptions& options) {
    return context.compute(view, options, run);
  };
  backend.apply_lut = [&](const ImageView& view, const Lut& lut, std::span<std::byte> to) {
    apply_lut_cpu(view, lut, to);
  };
  // CLAHE's tiles counted with `run` one by one, or, for 16-bit samples, in one
  // pass over the image on the CPU's threads (the same counts): a strategy's
  // 65536-bin histogram for each tile made a 1920x1080 RGB16 frame take 442 ms
  // on a 2-core machine against 43 ms in one pass; 8-bit tiles one by one took
  // 11.5 ms against 12.6 (docs/PERFORMANCE.md, "Adjustments").
  backend.clahe = [&](const ImageView& view, const ClaheOptions& options, std::span<std::byte> to) {
    if (view.format.sample == SampleType::U16) {
      clahe_cpu(view, options, to);
      return;
    }
    const HistogramOptions tone = tone_options(view.format, options.luma);
    clahe_cpu(view, options, to,
              [&](const ImageView& tile) { return context.compute(tile, tone, run); });
  };
  return adjust::adjust_with(backend, image, a, out);
}

}  // namespace gpuhist
