// The JSON form of one entry, shared by the JSON writer and line-oriented outputs.
#pragma once

#include <nlohmann/json.hpp>

#include "writers.hpp"

namespace gpuhist::cli {

// {"file", "width", "height", "format", "strategy", "bins", "histograms": {channel: [...]},
//  "stats": {channel: {"count","min","max","mean","stddev","median","p1","p99"}}};
// a total has "files" instead of "width", "height" and "format".
[[nodiscard]] nlohmann::ordered_json entry_json(const Entry& entry);

}  // namespace gpuhist::cli
