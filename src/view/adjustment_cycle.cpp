#include "view/adjustment_cycle.hpp"

#include <algorithm>

#include "gpuhist/adjust_image.hpp"
#include "view/display_frame.hpp"

namespace gpuhist::view {

std::optional<AdjustKind> next_adjustment(std::optional<AdjustKind> current, bool can_match) {
  const auto* at = std::find_if(kAdjustments.begin(), kAdjustments.end(),
                                [&](const AdjustmentInfo& row) { return row.kind == current; });
  for (auto* row = current ? at + 1 : kAdjustments.begin(); row < kAdjustments.end(); ++row) {
    if (!row->in_viewer) continue;
    if (row->needs_reference && !can_match) continue;
    return row->kind;
  }
  return std::nullopt;
}

AdjustmentCycle::AdjustmentCycle(const Context& context, const RunOptions& run,
                                 const HistogramOptions& histogram, const Adjustment& parameters,
                                 const std::optional<Image>& reference, bool at_start)
    : context_(context),
      run_(run),
      options_(histogram),
      parameters_(parameters),
      reference_(reference) {
  if (at_start) current_ = parameters;
}

std::optional<AdjustKind> AdjustmentCycle::next() {
  const std::optional<AdjustKind> kind = next_adjustment(
      current_ ? std::optional(current_->kind) : std::nullopt, reference_.has_value());
  current_.reset();
  if (kind) {
    current_ = parameters_;
    current_->kind = *kind;
  }
  return kind;
}

void AdjustmentCycle::adjust(const Image& shown) {
  adjusted_.reset();
  if (!current_) return;
  if (info(current_->kind).needs_reference) {
    const HistogramOptions tone = tone_options(shown.format, current_->luma);
    auto [it, added] = references_.try_emplace(tone.bins);
    if (added) it->second = context_.compute(reference_->view(), tone, run_);
    current_->reference = &it->second;
  }
  Image out = Image::allocate(shown.width, shown.height, adjusted_format(shown.format, *current_));
  (void)context_.adjust(shown.view(), *current_, out.bytes(), run_);
  adjusted_ = out.format.layout == ChannelLayout::Grey ? display_frame(out.view()) : std::move(out);
  histogram_ = context_.compute(adjusted_->view(), options_, run_);
}

}  // namespace gpuhist::view
