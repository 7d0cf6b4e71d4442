// The JSON of Y', Cb and Cr planes counted as decoded (--space ycbcr), shared
// by `video` (a row a frame) and `compute` (an entry a JPEG file).
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "entry_json.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/video_file.hpp"
#include "report_fields.hpp"

namespace gpuhist::cli {

// Adds "width", "height" (of Y'), "space": "ycbcr", "pixel_format", "depth",
// "range", "matrix", "histograms": {"y", "cb", "cr"} and "stats" of each plane (the
// luminance channel of each of `planes`, in the order Y', Cb, Cr; Y' alone
// for grey) to `row`; `planes` must outlive it.
void add_planes_json(JsonRow& row, const VideoFrame& frame, const std::vector<Histogram>& planes,
                     const ReportFields& fields);

// Adds "histograms": {"y", "cb", "cr"} and "stats" alone (a total over files).
void add_plane_counts_json(JsonRow& row, const std::vector<Histogram>& planes,
                           const ReportFields& fields);

// Adds each of `planes` into `total` (one histogram a plane; a plane the
// total has not had yet, as Cb after grey files, is taken as it is).
void add_planes(std::vector<Histogram>& total, const std::vector<Histogram>& planes);

}  // namespace gpuhist::cli
