#include "report_fields.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/statistics.hpp"
#include "inputs.hpp"
#include "messages.hpp"

namespace gpuhist::cli {

bool set_percentiles(const std::string& list, ReportFields& fields) {
  if (list.empty()) return true;
  const auto values = parse_numbers(list, 0.0, 100.0);
  if (!values) {
    (void)usage_error("bad --percentiles '" + list +
                      "' (numbers from 0 to 100, separated by commas)");
    return false;
  }
  fields.percentiles = *values;
  return true;
}

int set_reference(const std::string& path, const Context& context, const HistogramOptions& options,
                  const RunOptions& run, const ReadOptions& read, Histogram& reference,
                  ReportFields& fields) {
  if (path.empty()) return kExitOk;
  try {
    const Image image = load_input(path, read);
    warn_about_file(path, image);
    reference = context.compute(image.view(), options, run);
  } catch (const Error& e) {
    // Which picture it was, where it may be one of the inputs too.
    print_error("--compare " + (read.optioned ? describe(e) : std::string(e.what())));
    return exit_status(e.kind());
  }
  fields.reference = &reference;
  fields.reference_file = path;
  return kExitOk;
}

nlohmann::ordered_json stats_json(std::span<const std::uint64_t> counts,
                                  const std::vector<double>& percentiles) {
  const ChannelStats s = statistics(counts);
  nlohmann::ordered_json object = {{"count", s.count},     {"min", s.min},
                                   {"max", s.max},         {"mean", s.mean},
                                   {"stddev", s.stddev},   {"median", s.median},
                                   {"p1", s.p1},           {"p99", s.p99},
                                   {"shadows", s.shadows}, {"highlights", s.highlights}};
  for (double p : percentiles) {
    const std::string key = percentile_name(p);
    if (!object.contains(key)) object[key] = percentile(counts, p);
  }
  // Nothing counted (a merge of no readable file): every statistic but the count is undefined.
  if (s.count == 0) {
    for (auto& item : object.items()) {
      if (item.key() != "count") item.value() = nullptr;
    }
  }
  return object;
}

nlohmann::ordered_json metrics_json(const Comparison& c) {
  return {{"correlation", c.correlation},     {"chi_square", c.chi_square},
          {"intersection", c.intersection},   {"bhattacharyya", c.bhattacharyya},
          {"kl_divergence", c.kl_divergence}, {"emd", c.emd}};
}

nlohmann::ordered_json comparison_json(const Histogram& histogram, const ReportFields& fields) {
  nlohmann::ordered_json object;
  object["reference"] = fields.reference_file;
  for (Channel channel : histogram.channels()) {
    if (!fields.reference->has(channel)) continue;
    const std::string name(to_string(channel));
    // Nothing counted (a merge of no readable file): no shape to compare, every metric null.
    if (histogram.total(channel) == 0) {
      object[name] = metrics_json(Comparison{});
      for (auto& item : object[name].items()) item.value() = nullptr;
      continue;
    }
    object[name] =
        metrics_json(compare(histogram.counts(channel), fields.reference->counts(channel)));
  }
  return object;
}

}  // namespace gpuhist::cli
