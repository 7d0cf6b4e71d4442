// The JSON form of one entry, shared by the JSON writer and line-oriented outputs.
#pragma once

#include <nlohmann/json.hpp>

#include "report_fields.hpp"
#include "writers.hpp"

namespace gpuhist::cli {

// {"file", "width", "height", "format", "strategy", "bins", "histograms": {channel: [...]},
//  "stats": {channel: stats_json(...)}}, and "comparison" (comparison_json) when
// `fields` has a reference; a total has "files" instead of "width", "height" and "format".
// The file's pixel format as stored: "rgba8" for an RGBA file counted as RGB
// (alpha is never counted), "greya16" for grey with alpha.
[[nodiscard]] std::string file_format_name(PixelFormat format, bool alpha);

// JSON text on one line; bytes that are not UTF-8 (in file names) are written
// as U+FFFD rather than failing.
[[nodiscard]] std::string json_text(const nlohmann::ordered_json& value);

[[nodiscard]] nlohmann::ordered_json entry_json(const Entry& entry,
                                                const ReportFields& fields = {});

}  // namespace gpuhist::cli
