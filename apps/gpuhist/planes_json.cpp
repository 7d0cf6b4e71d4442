#include "planes_json.hpp"

#include <string>

namespace gpuhist::cli {

namespace {
constexpr const char* kPlaneNames[] = {"y", "cb", "cr"};
}  // namespace

void add_planes_json(JsonRow& row, const VideoFrame& frame, const std::vector<Histogram>& planes,
                     const ReportFields& fields) {
  nlohmann::ordered_json& object = row.object;
  object["width"] = frame.planes[0].width;
  object["height"] = frame.planes[0].height;
  object["space"] = "ycbcr";
  object["pixel_format"] = frame.pixel_format;
  object["depth"] = frame.depth;
  object["range"] = frame.colour.range;
  object["matrix"] = frame.colour.matrix;
  add_plane_counts_json(row, planes, fields);
}

void add_plane_counts_json(JsonRow& row, const std::vector<Histogram>& planes,
                           const ReportFields& fields) {
  nlohmann::ordered_json stats;
  row.object["histograms"] = nullptr;  // written from row.histograms
  for (std::size_t i = 0; i < planes.size() && i < std::size(kPlaneNames); ++i) {
    const auto counts = planes[i].counts(Channel::Luminance);
    row.histograms.emplace_back(kPlaneNames[i], counts);
    stats[kPlaneNames[i]] = stats_json(counts, fields.percentiles);
  }
  row.object["stats"] = std::move(stats);
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
