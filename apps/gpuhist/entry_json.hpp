// The JSON form of one entry, shared by the JSON writer and line-oriented outputs.
#pragma once

#include <nlohmann/json.hpp>

#include "report_fields.hpp"
#include "writers.hpp"

namespace gpuhist::cli {

// {"file", "width", "height", "format", "strategy", "bins", "histograms": {channel: [...]},
//  "stats": {channel: stats_json(...)}}, and "comparison" (comparison_json) when
// `fields` has a reference; a total has "files" instead of "width", "height" and "format".
[[nodiscard]] nlohmann::ordered_json entry_json(const Entry& entry,
                                                const ReportFields& fields = {});

}  // namespace gpuhist::cli
