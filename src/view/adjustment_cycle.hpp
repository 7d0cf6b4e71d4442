// The viewer's adjustments: the one shown (none, or one the `a` key reaches,
// in kAdjustments' order, match only with a reference) and the shown picture
// adjusted by it on the context's device, with the adjusted picture's
// histogram for the panels.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/image.hpp"

namespace gpuhist::view {

// The adjustment after `current` among those the viewer cycles (nullopt
// after the last), skipping those that need a reference without one.
[[nodiscard]] std::optional<AdjustKind> next_adjustment(std::optional<AdjustKind> current,
                                                        bool can_match);

class AdjustmentCycle {
 public:
  // `parameters` gives every kind's parameters (its kind shown from the
  // start with `at_start`); `reference` is the picture match matches to,
  // counted with one bin per value of each bit depth shown. Histograms are
  // counted on `context` with `run` and `histogram`'s options.
  AdjustmentCycle(const Context& context, const RunOptions& run, const HistogramOptions& histogram,
                  const Adjustment& parameters, const std::optional<Image>& reference,
                  bool at_start);

  // Moves to the next adjustment; the one now shown (nullopt: none).
  std::optional<AdjustKind> next();
  // Adjusts `shown` (8- or 16-bit RGB) by the current adjustment, if any.
  void adjust(const Image& shown);

  // The adjusted picture (RGB: a threshold's grey in every channel) and its
  // histogram; nullptr when no adjustment is shown.
  [[nodiscard]] const Image* picture() const noexcept { return adjusted_ ? &*adjusted_ : nullptr; }
  [[nodiscard]] const Histogram& histogram() const noexcept { return histogram_; }

 private:
  const Context& context_;
  RunOptions run_;
  HistogramOptions options_;
  Adjustment parameters_;
  const std::optional<Image>& reference_;
  std::optional<Adjustment> current_;
  std::optional<Image> adjusted_;
  Histogram histogram_;
  std::map<std::uint32_t, Histogram> references_;  // the reference's, by bins (bit depth)
};

}  // namespace gpuhist::view
