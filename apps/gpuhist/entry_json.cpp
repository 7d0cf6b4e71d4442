#include "entry_json.hpp"

#include <string>

namespace gpuhist::cli {

std::string file_format_name(PixelFormat format, bool alpha) { return to_string(format, alpha); }

std::string json_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

nlohmann::ordered_json entry_json(const Entry& entry, const ReportFields& fields) {
  nlohmann::ordered_json object;
  object["file"] = entry.file;
  if (entry.files) {
    object["files"] = *entry.files;
  } else {
    object["width"] = entry.width;
    object["height"] = entry.height;
  }
  if (entry.format) object["format"] = file_format_name(*entry.format, entry.alpha);
  if (entry.alpha) object["alpha"] = "not counted";
  object["strategy"] = std::string(to_string(entry.strategy));
  object["bins"] = entry.histogram.bins();
  nlohmann::ordered_json histograms = nlohmann::ordered_json::object();
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  for (Channel channel : entry.histogram.channels()) {
    const std::string name(to_string(channel));
    const auto counts = entry.histogram.counts(channel);
    histograms[name] = counts;
    stats[name] = stats_json(counts, fields.percentiles);
  }
  object["histograms"] = std::move(histograms);
  object["stats"] = std::move(stats);
  if (fields.reference != nullptr) object["comparison"] = comparison_json(entry.histogram, fields);
  return object;
}

}  // namespace gpuhist::cli
