// The JSON form of one entry, shared by the JSON writer and line-oriented outputs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

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

// A row whose "histograms" member is written from the counts themselves
// rather than from a JSON value a bin (4 x 65536 of them a frame at most):
// `object` holds null there, `histograms` each name and its counts, which
// must outlive the row.
struct JsonRow {
  nlohmann::ordered_json object;
  std::vector<std::pair<std::string, std::span<const std::uint64_t>>> histograms;
};

// The row's text on one line, as json_text writes `object` with its
// "histograms" member an object of arrays.
[[nodiscard]] std::string json_text(const JsonRow& row);

// Adds "histograms" (each channel of `histogram`), "stats" and, with a
// reference, "comparison" to `row`; `histogram` must outlive it.
void add_counted_json(JsonRow& row, const Histogram& histogram, const ReportFields& fields);

[[nodiscard]] JsonRow entry_json(const Entry& entry, const ReportFields& fields = {});

}  // namespace gpuhist::cli
