// What the outputs say of each channel besides its counts: the statistics (with
// any extra percentiles asked for) and the comparison with a reference image.
// Every output format takes its fields, in order, from here.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuhist/compare.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/histogram.hpp"
#include "inputs.hpp"

namespace gpuhist::cli {

struct ReportFields {
  std::vector<double> percentiles;       // extra percentiles, in the order asked
  const Histogram* reference = nullptr;  // compare every entry with this, when set
  std::string reference_file;
};

// Sets fields.percentiles from a --percentiles value (none when empty); prints
// the error and returns false when it does not parse.
[[nodiscard]] bool set_percentiles(const std::string& list, ReportFields& fields);

// Counts the --compare image (none when `path` is empty) as the inputs will be
// counted, into `reference`, and points `fields` at it. Prints the error and
// returns its exit status when that fails, else kExitOk.
[[nodiscard]] int set_reference(const std::string& path, const Context& context,
                                const HistogramOptions& options, const RunOptions& run,
                                const ReadOptions& read, Histogram& reference,
                                ReportFields& fields);

// {"count", "min", "max", "mean", "stddev", "median", "p1", "p99", "shadows",
//  "highlights", then "pX" for each extra percentile X not already there}; all
// but "count" null when nothing was counted.
[[nodiscard]] nlohmann::ordered_json stats_json(std::span<const std::uint64_t> counts,
                                                const std::vector<double>& percentiles);

// {"correlation", "chi_square", "intersection", "bhattacharyya", "kl_divergence", "emd"}
[[nodiscard]] nlohmann::ordered_json metrics_json(const Comparison& comparison);

// {"reference": FILE, channel: metrics_json(...)} over the channels both histograms have.
[[nodiscard]] nlohmann::ordered_json comparison_json(const Histogram& histogram,
                                                     const ReportFields& fields);

}  // namespace gpuhist::cli
