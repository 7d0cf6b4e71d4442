#include "planes_json.hpp"

#include <string>

namespace gpuhist::cli {

namespace {
constexpr const char* kPlaneNames[] = {"y", "cb", "cr"};
}  // namespace

void add_planes_json(nlohmann::ordered_json& row, const VideoFrame& frame,
                     const std::vector<Histogram>& planes, const ReportFields& fields) {
  row["width"] = frame.planes[0].width;
  row["height"] = frame.planes[0].height;
  row["space"] = "ycbcr";
  row["pixel_format"] = frame.pixel_format;
  row["depth"] = frame.depth;
  row["range"] = frame.colour.range;
  row["matrix"] = frame.colour.matrix;
  add_plane_counts_json(row, planes, fields);
}

void add_plane_counts_json(nlohmann::ordered_json& row, const std::vector<Histogram>& planes,
                           const ReportFields& fields) {
  nlohmann::ordered_json histograms, stats;
  for (std::size_t i = 0; i < planes.size() && i < std::size(kPlaneNames); ++i) {
    const auto counts = planes[i].counts(Channel::Luminance);
    histograms[kPlaneNames[i]] = std::vector<std::uint64_t>(counts.begin(), counts.end());
    stats[kPlaneNames[i]] = stats_json(counts, fields.percentiles);
  }
  row["histograms"] = std::move(histograms);
  row["stats"] = std::move(stats);
}

void add_planes(std::vector<Histogram>& total, const std::vector<Histogram>& planes) {
  for (std::size_t i = 0; i < planes.size(); ++i) {
    if (i < total.size()) {
      total[i] += planes[i];
    } else {
      total.push_back(planes[i]);  // the first file with this plane (a grey JPEG has Y' alone)
    }
  }
}

}  // namespace gpuhist::cli
