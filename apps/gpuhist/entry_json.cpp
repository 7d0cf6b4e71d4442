#include "entry_json.hpp"

#include <charconv>
#include <string>

namespace gpuhist::cli {

std::string file_format_name(PixelFormat format, bool alpha) { return to_string(format, alpha); }

std::string json_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

// {"name":[count,...],...}
void append_counts(std::string& text, const JsonRow& row) {
  std::size_t bins = 0;
  for (const auto& named : row.histograms) bins += named.second.size();
  text.reserve(text.size() + bins * 3 + 64);
  text += '{';
  for (std::size_t i = 0; i < row.histograms.size(); ++i) {
    if (i > 0) text += ',';
    text += json_text(row.histograms[i].first);
    text += ":[";
    char digits[24];
    bool first = true;
    for (const std::uint64_t count : row.histograms[i].second) {
      if (!first) text += ',';
      first = false;
      const auto end = std::to_chars(digits, digits + sizeof digits, count).ptr;
      text.append(digits, end);
    }
    text += ']';
  }
  text += '}';
}

}  // namespace

std::string json_text(const JsonRow& row) {
  if (!row.object.is_object() || !row.object.contains("histograms")) return json_text(row.object);
  std::string text = "{";
  bool first = true;
  for (const auto& item : row.object.items()) {
    if (!first) text += ',';
    first = false;
    text += json_text(item.key());
    text += ':';
    if (item.key() == "histograms") {
      append_counts(text, row);
    } else {
      text += json_text(item.value());
    }
  }
  text += '}';
  return text;
}

void add_counted_json(JsonRow& row, const Histogram& histogram, const ReportFields& fields) {
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  row.object["histograms"] = nullptr;  // written from row.histograms
  for (Channel channel : histogram.channels()) {
    std::string name(to_string(channel));
    const auto counts = histogram.counts(channel);
    stats[name] = stats_json(counts, fields.percentiles);
    row.histograms.emplace_back(std::move(name), counts);
  }
  row.object["stats"] = std::move(stats);
  if (fields.reference != nullptr) row.object["comparison"] = comparison_json(histogram, fields);
}

JsonRow entry_json(const Entry& entry, const ReportFields& fields) {
  JsonRow row;
  nlohmann::ordered_json& object = row.object;
  object["file"] = entry.file;
  if (entry.files) {
    object["files"] = *entry.files;
  } else {
    object["width"] = entry.width;
    object["height"] = entry.height;
  }
  if (entry.format) object["format"] = file_format_name(*entry.format, entry.alpha);
  if (entry.alpha) object["alpha"] = "not counted";
  if (!entry.warning.empty()) object["warning"] = entry.warning;
  if (!entry.notes.empty()) object["notes"] = entry.notes;
  object["strategy"] = std::string(to_string(entry.strategy));
  object["bins"] = entry.histogram.bins();
  add_counted_json(row, entry.histogram, fields);
  return row;
}

}  // namespace gpuhist::cli
