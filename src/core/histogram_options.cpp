#include "gpuhist/histogram_options.hpp"

#include <string>

#include "gpuhist/error.hpp"

namespace gpuhist {

void validate(const HistogramOptions& options) {
  if (options.bins < kMinBins || options.bins > kMaxBins) {
    throw Error(ErrorKind::InvalidArgument,
                "bins must be between 1 and 65536, got " + std::to_string(options.bins));
  }
  if (options.luma != LumaWeights::Rec709 && options.luma != LumaWeights::Rec601) {
    throw Error(ErrorKind::InvalidArgument, "unknown luminance weights");
  }
}

std::optional<LumaWeights> parse_luma(std::string_view text) {
  if (text == "709" || text == "rec709") return LumaWeights::Rec709;
  if (text == "601" || text == "rec601") return LumaWeights::Rec601;
  return std::nullopt;
}

std::string_view to_string(LumaWeights luma) { return luma == LumaWeights::Rec601 ? "601" : "709"; }

}  // namespace gpuhist
