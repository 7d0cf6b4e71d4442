// What `compute` and `video` say besides the counts: extra percentiles, the
// clipped fractions, and comparisons with a reference image.
#include <gtest/gtest.h>

#include <OpenImageIO/imageio.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "gpuhist/compare.hpp"
#include "gpuhist/statistics.hpp"
#include "support/run_cli.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;  // keeps the order of the fields
using test::expect_one_line_error;
using test::run_cli;

const std::string kCoffee = std::string(GPUHIST_SOURCE_DIR) + "/data/coffee.png";
const std::string kRocket = std::string(GPUHIST_SOURCE_DIR) + "/data/rocket.jpg";
constexpr const char* kMetrics[] = {"correlation",   "chi_square",    "intersection",
                                    "bhattacharyya", "kl_divergence", "emd"};

std::vector<std::uint64_t> counts_of(const json& histogram) {
  return histogram.get<std::vector<std::uint64_t>>();
}

json compute_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"compute", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return json::parse(r.out);
}

class CliStats : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(CliStats, PercentilesAndClippedFractions) {
  const json j = compute_json({kRocket, "--bins", "1000", "--percentiles", "5,50,99.9,0.25,1"});
  for (const char* channel : {"red", "green", "blue", "luminance"}) {
    SCOPED_TRACE(channel);
    const auto counts = counts_of(j["histograms"][channel]);
    const json& stats = j["stats"][channel];
    // The usual statistics first, then the ones asked for ("p1" is there already).
    std::vector<std::string> keys;
    for (const auto& item : stats.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"count", "min", "max", "mean", "stddev", "median",
                                              "p1", "p99", "shadows", "highlights", "p5", "p50",
                                              "p99.9", "p0.25"}));
    EXPECT_EQ(stats["p5"], percentile(counts, 5));
    EXPECT_EQ(stats["p50"], stats["median"]);
    EXPECT_EQ(stats["p99.9"], percentile(counts, 99.9));
    EXPECT_EQ(stats["p0.25"], percentile(counts, 0.25));
    EXPECT_LE(stats["p5"], stats["p50"]);
    const double total = static_cast<double>(stats["count"].get<std::uint64_t>());
    EXPECT_DOUBLE_EQ(stats["shadows"].get<double>(), static_cast<double>(counts.front()) / total);
    EXPECT_DOUBLE_EQ(stats["highlights"].get<double>(), static_cast<double>(counts.back()) / total);
  }
  // The photograph clips: some of its blue is at 0 and some of its green at 255.
  const json at_256 = compute_json({kCoffee});
  EXPECT_GT(at_256["stats"]["blue"]["shadows"].get<double>(), 0.01);
  EXPECT_GT(at_256["stats"]["green"]["highlights"].get<double>(), 0.001);
}

TEST_F(CliStats, CompareWithAReference) {
  const json coffee = compute_json({kCoffee});
  const json rocket = compute_json({kRocket});
  const json j = compute_json({kCoffee, kRocket, "--compare", kRocket, "--merge"});
  ASSERT_EQ(j.size(), 3U);
  for (const char* channel : {"red", "green", "blue", "luminance"}) {
    SCOPED_TRACE(channel);
    // Against itself: equal in every metric.
    const json& same = j[1]["comparison"][channel];
    EXPECT_EQ(same["correlation"], 1.0);
    EXPECT_EQ(same["intersection"], 1.0);
    for (const char* zero : {"chi_square", "bhattacharyya", "kl_divergence", "emd"}) {
      EXPECT_EQ(same[zero], 0.0) << zero;
    }
    // Against another photograph: the library's values, on the histograms printed.
    const Comparison c =
        compare(counts_of(coffee["histograms"][channel]), counts_of(rocket["histograms"][channel]));
    const json& other = j[0]["comparison"][channel];
    EXPECT_EQ(other["correlation"], c.correlation);
    EXPECT_EQ(other["chi_square"], c.chi_square);
    EXPECT_EQ(other["intersection"], c.intersection);
    EXPECT_EQ(other["bhattacharyya"], c.bhattacharyya);
    EXPECT_EQ(other["kl_divergence"], c.kl_divergence);
    EXPECT_EQ(other["emd"], c.emd);
    EXPECT_LT(c.intersection, 0.9);
    // The total is compared too.
    for (const char* metric : kMetrics) EXPECT_TRUE(j[2]["comparison"][channel].contains(metric));
  }
  EXPECT_EQ(j[0]["comparison"]["reference"], kRocket);
  EXPECT_EQ(j[2]["file"], "(total)");
}

TEST_F(CliStats, AGreyReferenceComparesLuminanceOnly) {
  const std::string grey = (dir_ / "grey.png").string();
  auto out = OIIO::ImageOutput::create(grey);
  ASSERT_TRUE(out);
  const std::uint8_t pixels[6] = {0, 10, 10, 200, 255, 255};
  ASSERT_TRUE(out->open(grey, OIIO::ImageSpec(3, 2, 1, OIIO::TypeDesc::UINT8)));
  ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, pixels));
  out->close();
  const json j = compute_json({kCoffee, "--compare", grey});
  EXPECT_EQ(j["comparison"].size(), 2U);  // "reference" and "luminance"
  EXPECT_TRUE(j["comparison"].contains("luminance"));
}

TEST_F(CliStats, TableShowsTheExtraColumnsAndTheComparison) {
  const auto r = run_cli({kCoffee, "--percentiles", "5,95", "--compare", kRocket});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* word : {"shadows", "highlights", "p5", "p95", "compared with", "correlation",
                           "bhattacharyya", "emd", kRocket.c_str()}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
  }
  // Four channel rows of statistics and four of metrics.
  std::istringstream lines(r.out);
  std::string line;
  int luminance_rows = 0;
  while (std::getline(lines, line)) luminance_rows += line.rfind("luminance", 0) == 0;
  EXPECT_EQ(luminance_rows, 2);
}

TEST_F(CliStats, VideoRowsCarryThemToo) {
  const std::string clip = (dir_ / "clip.mp4").string();
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=5 -frames:v 3 -pix_fmt yuv420p '" +
                           clip + "'"));
  const auto jsonl = run_cli({"video", clip, "--percentiles", "10", "--compare", kCoffee,
                              "--no-progress", "--bins", "16"});
  ASSERT_EQ(jsonl.status, 0) << jsonl.err;
  std::istringstream rows(jsonl.out);
  std::string line;
  int frames = 0;
  std::vector<std::vector<std::uint64_t>> reds;
  while (std::getline(rows, line)) {
    const json row = json::parse(line);
    const auto red = counts_of(row["histograms"]["red"]);
    EXPECT_EQ(row["stats"]["red"]["p10"], percentile(red, 10));
    EXPECT_TRUE(row["comparison"]["red"].contains("emd"));
    reds.push_back(red);
    ++frames;
  }
  EXPECT_EQ(frames, 3);
  // CSV: the same fields as columns, every row as long as the header.
  const auto csv = run_cli({"video", clip, "--format", "csv", "--percentiles", "10", "--compare",
                            kCoffee, "--no-progress", "--bins", "16"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  std::istringstream csv_lines(csv.out);
  std::getline(csv_lines, line);
  const auto cells = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
  };
  const auto header = cells(line);
  // frame,time,width,height + 4 x (10 stats + p10 + 6 metrics + 16 counts)
  ASSERT_EQ(header.size(), 4U + 4 * (11 + 6 + 16));
  EXPECT_EQ(header[14], "red_p10");
  EXPECT_EQ(header[15], "red_correlation");
  EXPECT_EQ(header[21], "red_0");
  int row = 0;
  while (std::getline(csv_lines, line)) {
    const auto values = cells(line);
    ASSERT_EQ(values.size(), header.size());
    EXPECT_EQ(std::stoull(values[14]), percentile(reds[static_cast<std::size_t>(row)], 10));
    ++row;
  }
  EXPECT_EQ(row, 3);
}

TEST_F(CliStats, VideoComparesEachFrameWithTheOneBefore) {
  // Five frames of a test pattern, then five of plain red: a cut at frame 5.
  const std::string clip = (dir_ / "cut.mp4").string();
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc=size=64x48:rate=5:duration=1 -f lavfi -i "
      "color=c=red:size=64x48:rate=5:duration=1 -filter_complex '[0:v][1:v]concat=n=2:v=1[v]' "
      "-map '[v]' -pix_fmt yuv420p '" +
      clip + "'"));
  const auto r = run_cli({"video", clip, "--compare-previous", "--no-progress"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<json> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(json::parse(line));
  ASSERT_EQ(rows.size(), 10U);
  EXPECT_FALSE(rows[0].contains("comparison"));  // nothing before the first frame
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const json& c = rows[i]["comparison"];
    EXPECT_EQ(c["reference"], "previous frame");
    // Each frame against the one before, as the library compares them.
    const Comparison expected = compare(counts_of(rows[i]["histograms"]["luminance"]),
                                        counts_of(rows[i - 1]["histograms"]["luminance"]));
    EXPECT_EQ(c["luminance"]["emd"], expected.emd) << "frame " << i;
    // Only the cut moves the luminance far.
    if (i == 5) {
      EXPECT_GT(expected.emd, 20.0);
    } else {
      EXPECT_LT(expected.emd, 5.0) << "frame " << i;
    }
  }
  const auto both = run_cli({"video", clip, "--compare-previous", "--compare", kCoffee});
  EXPECT_EQ(both.status, 2);
  expect_one_line_error(both, "--compare-previous");
}

TEST_F(CliStats, BadRequestsExitWithAStatusAndOneLine) {
  const std::pair<std::vector<std::string>, std::string> usage[] = {
      {{kCoffee, "--percentiles", "5,"}, "--percentiles"},
      {{kCoffee, "--percentiles", "101"}, "101"},
      {{kCoffee, "--percentiles", "-1"}, "-1"},
      {{kCoffee, "--percentiles", "five"}, "five"},
      {{kCoffee, "--percentiles", "nan"}, "nan"},
      {{kCoffee, "--percentiles", ""}, "an empty list"},
      {{"video", kCoffee, "--percentiles", ""}, "an empty list"},
      {{kCoffee, "-o", ""}, "--output: an empty file name"},
      {{kCoffee, "--compare", ""}, "--compare: an empty file name"},
      {{""}, "files: an empty file name"},
      {{kCoffee, "--strategy", ""}, "--strategy: an empty value"},
      {{kCoffee, "--compare", kRocket, "--format", "csv"}, "--format table or json"},
      {{kCoffee, "--percentiles", "5", "--format", "npy"}, "--format table or json"},
      {{"video", kCoffee, "--percentiles", "x"}, "--percentiles"},
      {{"video", kCoffee, "--overlay", "-o", (dir_ / "o.mp4").string(), "--compare", kRocket},
       "--overlay"},
  };
  for (const auto& [args, needle] : usage) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.err;
    expect_one_line_error(r, needle);
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // A reference that cannot be read stops the run before any file.
  for (const std::string& reference : {(dir_ / "missing.png").string(), dir_.string()}) {
    const auto r = run_cli({kCoffee, "--compare", reference, "--format", "json"});
    EXPECT_EQ(r.status, 1) << reference;
    expect_one_line_error(r, "gpuhist: error: --compare " + reference + ": ");
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace gpuhist
