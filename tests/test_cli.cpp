// The gpuhist command end to end: every output format, every verb, and every
// error path with its exit status and one-line message.
#include <gtest/gtest.h>

#include <OpenImageIO/imageio.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gpuhist/version.hpp"
#include "support/run_cli.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using test::expect_one_line_error;
using test::run_cli;
using json = nlohmann::json;

const std::string kCoffee = std::string(GPUHIST_SOURCE_DIR) + "/data/coffee.png";
const std::string kRocket = std::string(GPUHIST_SOURCE_DIR) + "/data/rocket.jpg";

class Cli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Cli, JsonContract) {
  const auto r = run_cli({"compute", kCoffee, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["file"], kCoffee);
  EXPECT_EQ(j["width"], 600);
  EXPECT_EQ(j["height"], 400);
  EXPECT_EQ(j["bins"], 256);
  for (const char* channel : {"red", "green", "blue", "luminance"}) {
    const auto& counts = j["histograms"][channel];
    ASSERT_EQ(counts.size(), 256U) << channel;
    std::uint64_t total = 0;
    for (const auto& c : counts) total += c.get<std::uint64_t>();
    EXPECT_EQ(total, 240000U) << channel;
    const auto& stats = j["stats"][channel];
    for (const char* key : {"count", "min", "max", "mean", "stddev", "median", "p1", "p99"}) {
      EXPECT_TRUE(stats.contains(key)) << channel << " " << key;
    }
    EXPECT_EQ(stats["count"], 240000);
  }
}

// The issue's acceptance check: the same histograms from every strategy.
TEST_F(Cli, EveryStrategyPrintsTheSameHistograms) {
  for (const std::string& photo : {kCoffee, kRocket}) {
    json first;
    for (const char* strategy : {"cpu-reference", "cpu", "gpu-single", "gpu-atomic",
                                 "gpu-chunks-sum", "gpu-chunks-reduce", "gpu"}) {
      const auto r = run_cli({"compute", photo, "--format", "json", "--strategy", strategy});
      ASSERT_EQ(r.status, 0) << strategy << ": " << r.err;
      const json j = json::parse(r.out);
      EXPECT_EQ(j["strategy"], strategy);
      if (first.is_null()) first = j["histograms"];
      EXPECT_EQ(j["histograms"], first) << strategy << " on " << photo;
    }
  }
}

TEST_F(Cli, ComputeIsTheDefaultVerbAndTableTheDefaultFormat) {
  const auto r = run_cli({kCoffee});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("600x400"), std::string::npos) << r.out;
  for (const char* word : {"channel", "red", "green", "blue", "luminance", "median", "p99"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  }
  EXPECT_NE(r.out.find("240000"), std::string::npos);
}

TEST_F(Cli, CsvHasOneRowPerBin) {
  const auto r = run_cli({kCoffee, "--format", "csv", "--bins", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "file,bin,red,green,blue,luminance");
  int rows = 0;
  std::uint64_t red_total = 0;
  while (std::getline(lines, line)) {
    std::istringstream cells(line);
    std::string file, bin, red;
    std::getline(cells, file, ',');
    std::getline(cells, bin, ',');
    std::getline(cells, red, ',');
    EXPECT_EQ(file, kCoffee);
    EXPECT_EQ(bin, std::to_string(rows));
    red_total += std::stoull(red);
    ++rows;
  }
  EXPECT_EQ(rows, 16);
  EXPECT_EQ(red_total, 240000U);
}

TEST_F(Cli, NpyFile) {
  const std::string out = (dir_ / "h.npy").string();
  const auto r = run_cli({kCoffee, "--format", "npy", "-o", out, "--bins", "1000"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(out, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(data.size(), 10U);
  EXPECT_EQ(data.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_len =
      static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0U);
  const std::string header = data.substr(10, header_len);
  EXPECT_NE(header.find("'descr': '<u8'"), std::string::npos) << header;
  EXPECT_NE(header.find("'shape': (4, 1000)"), std::string::npos) << header;
  ASSERT_EQ(data.size(), 10 + header_len + 4 * 1000 * 8);
  std::uint64_t green = 0;
  for (std::size_t i = 0; i < 1000; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, data.data() + 10 + header_len + (1000 + i) * 8, 8);
    green += v;
  }
  EXPECT_EQ(green, 240000U);
}

// Of several files, one that cannot be read keeps its place in an NPY array
// as a row of zeros: entry i is still the i-th file, whose counts are its own.
TEST_F(Cli, NpyEntriesKeepTheirFilesPlaces) {
  const std::string cut = (dir_ / "cut.png").string();
  {
    const std::string bytes = test::file_text(kCoffee);
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  const std::string out = (dir_ / "h.npy").string();
  const auto r = run_cli({kCoffee, cut, kRocket, "--format", "npy", "-o", out, "--merge"});
  EXPECT_EQ(r.status, 1) << r.err;
  const std::string data = test::file_text(out);
  ASSERT_GT(data.size(), 10U);
  const std::size_t header_len =
      static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
  const std::string header = data.substr(10, header_len);
  EXPECT_NE(header.find("'shape': (4, 4, 256)"), std::string::npos) << header;
  ASSERT_EQ(data.size(), 10 + header_len + 4 * 4 * 256 * 8);
  // Each entry's pixels, counted in its luminance row.
  const auto pixels = [&](std::size_t entry) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < 256; ++i) {
      std::uint64_t v = 0;
      std::memcpy(&v, data.data() + 10 + header_len + ((entry * 4 + 3) * 256 + i) * 8, 8);
      sum += v;
    }
    return sum;
  };
  EXPECT_EQ(pixels(0), 600U * 400);
  EXPECT_EQ(pixels(1), 0U);
  EXPECT_EQ(pixels(2), 640U * 427);
  EXPECT_EQ(pixels(3), 600U * 400 + 640 * 427);  // the total, of the files read
}

TEST_F(Cli, SeveralFilesFoldersAndMerge) {
  fs::create_directories(dir_ / "set/sub");
  fs::copy_file(kCoffee, dir_ / "set/a.png");
  fs::copy_file(kRocket, dir_ / "set/sub/b.jpg");
  std::ofstream(dir_ / "set/readme.txt") << "not an image";
  const auto r =
      run_cli({(dir_ / "set").string(), "--format", "json", "--merge", "--strategy", "gpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 3U);  // two images (the .txt is skipped) and the total
  EXPECT_EQ(j[0]["file"], (dir_ / "set/a.png").string());
  EXPECT_EQ(j[2]["file"], "(total)");
  EXPECT_EQ(j[2]["files"], 2);
  const std::uint64_t pixels = 600 * 400 + 640 * 427;
  EXPECT_EQ(j[2]["stats"]["luminance"]["count"], pixels);
  for (std::size_t bin = 0; bin < 256; ++bin) {
    EXPECT_EQ(j[2]["histograms"]["red"][bin].get<std::uint64_t>(),
              j[0]["histograms"]["red"][bin].get<std::uint64_t>() +
                  j[1]["histograms"]["red"][bin].get<std::uint64_t>());
  }
}

TEST_F(Cli, AFolderWithoutImagesIsAnInputError) {
  fs::create_directories(dir_ / "notes");
  std::ofstream(dir_ / "notes/readme.txt") << "not an image";
  const auto alone = run_cli({(dir_ / "notes").string(), "--format", "json"});
  EXPECT_EQ(alone.status, 1);
  expect_one_line_error(alone, "notes: no image files in this folder");
  // The other arguments are still counted and printed.
  const auto mixed = run_cli({(dir_ / "notes").string(), kCoffee, "--format", "json"});
  EXPECT_EQ(mixed.status, 1);
  expect_one_line_error(mixed, "no image files");
  const json j = json::parse(mixed.out);
  ASSERT_EQ(j.size(), 1U);
  EXPECT_EQ(j[0]["file"], kCoffee);
  const auto draw = run_cli({"draw", (dir_ / "notes").string(), "-o", (dir_ / "out.png").string()});
  EXPECT_EQ(draw.status, 1);
  expect_one_line_error(draw, "no image files in this folder");
}

TEST_F(Cli, GreyImagesHaveLuminanceOnly) {
  const std::string path = (dir_ / "grey.png").string();
  auto out = OIIO::ImageOutput::create(path);
  ASSERT_TRUE(out);
  const std::uint8_t pixels[6] = {0, 10, 10, 200, 255, 255};
  ASSERT_TRUE(out->open(path, OIIO::ImageSpec(3, 2, 1, OIIO::TypeDesc::UINT8)));
  ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, pixels));
  out->close();
  const auto r = run_cli({path, "--format", "json", "--strategy", "gpu-atomic"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["histograms"].size(), 1U);
  EXPECT_EQ(j["histograms"]["luminance"][10], 2);
  EXPECT_EQ(j["histograms"]["luminance"][255], 2);
  EXPECT_EQ(j["stats"].size(), 1U);
}

TEST_F(Cli, BadFilesAreReportedAndTheRestPrinted) {
  std::ofstream(dir_ / "broken.png") << "garbage";
  const auto r = run_cli({kCoffee, (dir_ / "missing.jpg").string(), (dir_ / "broken.png").string(),
                          kRocket, "--format", "json"});
  EXPECT_EQ(r.status, 1);
  const json j = json::parse(r.out);
  ASSERT_EQ(j.size(), 2U);
  EXPECT_EQ(j[0]["file"], kCoffee);
  EXPECT_EQ(j[1]["file"], kRocket);
  EXPECT_NE(r.err.find("missing.jpg: no such file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("broken.png"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

TEST_F(Cli, InputErrorsExitWithOne) {
  std::ofstream(dir_ / "empty.png").close();
  std::ofstream(dir_ / "text.tif") << "text";
  {
    std::ifstream in(kCoffee, std::ios::binary);
    std::string half(150000, '\0');
    in.read(half.data(), 150000);
    std::ofstream(dir_ / "truncated.png", std::ios::binary) << half;
  }
  std::filesystem::create_symlink("loop.png", dir_ / "loop.png");
  const std::pair<std::string, std::string> cases[] = {
      {(dir_ / "missing.png").string(), "no such file"},
      {(dir_ / "loop.png").string(), "loop.png: too many levels of symbolic links"},
      {(dir_ / "empty.png").string(), "empty"},
      {(dir_ / "text.tif").string(), "text.tif"},
      {(dir_ / "truncated.png").string(), "truncated"},
  };
  for (const auto& [path, needle] : cases) {
    const auto r = run_cli({path});
    EXPECT_EQ(r.status, 1) << path;
    expect_one_line_error(r, needle);
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const auto big = run_cli({kCoffee, "--max-pixels", "1000"});
  EXPECT_EQ(big.status, 1);
  expect_one_line_error(big, "exceeds the limit of 1000");
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{kCoffee, "--bins", "0"}, "--bins"},
      {{kCoffee, "--bins", "65537"}, "--bins"},
      {{kCoffee, "--bins", "many"}, "--bins"},
      {{kCoffee, "--bins", "0x10"}, "--bins"},
      {{kCoffee, "--bins", "4294967552"}, "--bins: '4294967552' is too large (65536 at most)"},
      {{kCoffee, "--percentiles", "0x10"}, "--percentiles"},
      {{"clahe", kCoffee, "-o", "c.png", "--clip-limit", ""}, "--clip-limit"},
      {{"autolevel", kCoffee, "-o", "c.png", "--clip", "0x10"}, "--clip"},
      {{kCoffee, "--strategy", "fastest"}, "fastest"},
      {{kCoffee, "--device", "no-such-gpu"}, "no-such-gpu"},
      {{kCoffee, "--device", "99"}, "no Vulkan device with index 99 ("},
      {{kCoffee, "--device", "-1"}, "no Vulkan device with index -1 ("},
      {{kCoffee, "--device", "-0"}, "no Vulkan device with index -0 ("},
      {{kCoffee, "--device", "99999999999999999999"}, "with index 99999999999999999999 ("},
      {{kCoffee, "--format", "xml"}, "xml"},
      {{kCoffee, "--luma", "2020"}, "2020"},
      {{kCoffee, "--chunk", "8x8"}, "8x8"},
      {{kCoffee, "--max-pixels", "0"}, "--max-pixels"},
      {{kCoffee, "--frobnicate"}, "frobnicate"},
      {{"compute"}, "files"},
      {{kCoffee, "--device", "cpu", "--strategy", "gpu"}, "--device cpu"},
      {{"devices", "--format", "yaml"}, "yaml"},
  };
  for (const auto& [args, needle] : cases) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.err;
    expect_one_line_error(r, needle);
  }
}

// Numbers are decimal whatever their leading zeros (not octal, as the option
// parser would read them).
TEST_F(Cli, NumbersWithLeadingZerosAreDecimal) {
  for (const auto& [given, bins] : {std::pair{"010", 10}, {"08", 8}, {"00256", 256}}) {
    const auto r = run_cli({kCoffee, "--bins", given, "--format", "json", "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << given << ": " << r.err;
    EXPECT_EQ(json::parse(r.out)["bins"], bins) << given;
  }
  const auto limit = run_cli({kCoffee, "--max-pixels", "0240000", "--device", "cpu"});
  EXPECT_EQ(limit.status, 0) << limit.err;  // 240000, coffee.png's pixels, not octal's 81920
}

TEST_F(Cli, UnwritableOutputExitsWithFour) {
  const auto r = run_cli({kCoffee, "-o", (dir_ / "no/such/folder/out.json").string()});
  EXPECT_EQ(r.status, 4);
  expect_one_line_error(r, "out.json");
}

TEST_F(Cli, CpuStrategiesRunWithoutVulkan) {
  const auto r = run_cli({kCoffee, "--device", "cpu", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["strategy"], "cpu");
}

TEST_F(Cli, DevicesListsTheSoftwareOrHardwareDevice) {
  const auto table = run_cli({"devices"});
  ASSERT_EQ(table.status, 0) << table.err;
  for (const char* word :
       {"max invocations", "max workgroup size", "shared memory", "subgroup size", "timestamps"}) {
    EXPECT_NE(table.out.find(word), std::string::npos) << word;
  }
  const auto r = run_cli({"devices", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_FALSE(j.empty()) << "no Vulkan device: GPU strategies must be tested";
  EXPECT_GT(j[0]["max_invocations"].get<int>(), 0);
  EXPECT_GT(j[0]["max_shared_memory"].get<int>(), 0);
  // Choosing the first device by index and by a piece of its name both work.
  const std::string name = j[0]["name"];
  for (const std::string& device : {std::to_string(j[0]["index"].get<int>()), name.substr(0, 4)}) {
    const auto by = run_cli({kCoffee, "--device", device, "--strategy", "gpu", "--format", "json"});
    EXPECT_EQ(by.status, 0) << device << ": " << by.err;
  }
}

TEST_F(Cli, HelpAndVersion) {
  const auto help = run_cli({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("compute"), std::string::npos);
  EXPECT_NE(help.out.find("devices"), std::string::npos);
  const auto sub = run_cli({"compute", "--help"});
  EXPECT_EQ(sub.status, 0);
  EXPECT_NE(sub.out.find("--strategy"), std::string::npos);
  const auto version = run_cli({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("gpuhist ", 0), 0U);
}

}  // namespace
}  // namespace gpuhist

namespace gpuhist {
namespace {

TEST(CliBench, TimesEveryRequestedStrategyExactly) {
  const auto r = test::run_cli({"bench", "--sizes", "64x48,33x7", "--strategies",
                                "cpu-reference,cpu,gpu-chunks-reduce,gpu", "--repetitions", "2",
                                "--adjust-formats", "rgb8,rgb16", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  // The report says what made it: the version and the runs each figure took.
  EXPECT_EQ(j["gpuhist"], gpuhist::kVersion);
  EXPECT_EQ(j["repetitions"], 2);
  EXPECT_GT(j["copy_gbps"].get<double>(), 0.0);
  ASSERT_FALSE(j["rows"].empty());
  std::set<std::string> strategies;
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["check"], "exact") << row.dump();
    strategies.insert(row["strategy"].get<std::string>());
    if (row["strategy"] == "gpu") EXPECT_GT(row["gpu_ms"].get<double>(), 0.0);
    // A CPU strategy has no GPU time, so no share of the device's rates: null, not 0.
    if (row["strategy"] == "cpu") {
      EXPECT_TRUE(row["gpu_ms"].is_null() && row["copy_percent"].is_null() &&
                  row["read_percent"].is_null())
          << row.dump();
    }
  }
  EXPECT_EQ(strategies.size(), 4U);
  // The fixed costs of a call are measured by --e2e only.
  EXPECT_TRUE(j["empty_submission_ms"].is_null()) << j["empty_submission_ms"];
  EXPECT_GT(j["shader_copy_gbps"].get<double>(), 0.0);
  EXPECT_GT(j["shader_read_gbps"].get<double>(), 0.0);
  // The host-memory stream, on the smallest size: read in place, copied first,
  // and copied into its slot by the host.
  ASSERT_EQ(j["stream"].size(), 3U);
  for (const auto& row : j["stream"]) {
    EXPECT_EQ(row["check"], "exact") << row.dump();
    EXPECT_EQ(row["width"], 33);
    EXPECT_GT(row["fps"].get<double>(), 0.0);
  }
  // The adjustments, on the smallest size too: five kinds in both formats, on
  // the GPU and the CPU, with the same bytes.
  ASSERT_EQ(j["adjust"].size(), 20U);
  std::set<std::string> kinds;
  for (const auto& row : j["adjust"]) {
    EXPECT_EQ(row["check"], "exact") << row.dump();
    EXPECT_EQ(row["width"], 33);
    EXPECT_GT(row["fps"].get<double>(), 0.0);
    kinds.insert(row["format"].get<std::string>() + "/" + row["adjust"].get<std::string>() + "/" +
                 row["applied"].get<std::string>());
  }
  EXPECT_EQ(kinds.size(), 20U);
}

TEST(CliBench, BadOptionsExitWithTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--sizes", "64y48"},
        std::vector<std::string>{"bench", "--strategies", "fastest"},
        std::vector<std::string>{"bench", "--data", "noise"},
        std::vector<std::string>{"bench", "--format", "xml"},
        std::vector<std::string>{"bench", "--stream-sizes", "8k"},
        std::vector<std::string>{"bench", "--adjust-sizes", "4k"},
        std::vector<std::string>{"bench", "--adjust-formats", "rgba32f"},
        std::vector<std::string>{"bench", "--adjust-formats", "rgb9"},
        std::vector<std::string>{"bench", "--stream-queues", "3"},
        // Counts are decimal: CLI11 alone took 0x10 as 16 and 010 as 8.
        std::vector<std::string>{"bench", "--repetitions", "0x10"},
        std::vector<std::string>{"bench", "--stream-frames", "-1"},
        std::vector<std::string>{"bench", "--stream-batch", "65"},
        std::vector<std::string>{"bench", "--stream-copy-threads", "1000"},
        std::vector<std::string>{"bench", "--stream-memory", "vram"},
        std::vector<std::string>{"bench", "--cases", "rgba8"},
        std::vector<std::string>{"bench", "--cases", "rgba9:256"},
        std::vector<std::string>{"bench", "--cases", "rgba8:0"},
        std::vector<std::string>{"bench", "--cases", "rgb16:65537"},
        // A sign is no size (unsigned parsing took -64 for 2^32 - 64); nor are sides or
        // pixels past the bench's bounds, refused at once rather than allocated.
        std::vector<std::string>{"bench", "--sizes", "-64x64"},
        std::vector<std::string>{"bench", "--sizes", "64x+64"},
        std::vector<std::string>{"bench", "--stream-sizes", "64x-64"},
        std::vector<std::string>{"bench", "--adjust-sizes", "-8x8"},
        std::vector<std::string>{"bench", "--sizes", "65537x1"},
        std::vector<std::string>{"bench", "--sizes", "65536x65536"},
        std::vector<std::string>{"bench", "--stream-sizes", "64x64,none"},
        // 0 is out of the documented ranges too, not "the default".
        std::vector<std::string>{"bench", "--stream-batch", "0"},
        std::vector<std::string>{"bench", "--stream-queues", "0"},
        std::vector<std::string>{"bench", "--stream-copy-threads", "0"},
        std::vector<std::string>{"bench", "--video", "--sizes", "16386x64"},
        std::vector<std::string>{"bench", "--video", "--sizes", "65x64"}}) {
    const auto r = test::run_cli(args);
    const std::string& named = args.back();
    EXPECT_EQ(r.status, 2) << named << ": " << r.err;
    expect_one_line_error(r, named);
  }
}

// A video benchmark that cannot make its clip (no ffmpeg command line on the
// PATH) says so and leaves no output file behind, whole or absent.
TEST(CliBench, AVideoRunThatFailsLeavesNoOutput) {
  const std::string dir = test::temp_dir();
  const std::string out = dir + "/bench.txt";
  const auto r = test::run_cli(
      {"bench", "--video", "--sizes", "64x64", "--video-frames", "2", "--device", "cpu", "-o", out},
      {"PATH=" + dir});
  EXPECT_EQ(r.status, 1) << r.err;
  test::expect_one_line_error(r, "could not make a 64x64 H.264 test clip");
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove_all(dir);
}

// --cases picks the formats and bin counts: the first on every size, the
// others on the largest only.
TEST(CliBench, CasesPickFormatsAndBins) {
  const auto r = test::run_cli({"bench", "--sizes", "40x30,20x10", "--strategies", "gpu", "--data",
                                "random", "--cases", "grey16:300,rgb8:7", "--stream-sizes", "none",
                                "--repetitions", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  std::multiset<std::string> cases;
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["check"], "exact") << row.dump();
    cases.insert(row["format"].get<std::string>() + ":" + std::to_string(row["bins"].get<int>()) +
                 "@" + std::to_string(row["width"].get<int>()));
  }
  EXPECT_EQ(cases, (std::multiset<std::string>{"grey16:300@40", "grey16:300@20", "rgb8:7@40"}));
}

// The benchmark binary for bare GPU machines links nothing beyond the Vulkan
// loader and the C runtime.
TEST(CliBench, EngineOnlyBenchmarkNeedsOnlyTheVulkanLoader) {
  const std::string command = std::string("ldd '") + GPUHIST_BENCH_BINARY + "'";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string libraries;
  char line[512];
  while (fgets(line, sizeof line, pipe) != nullptr) libraries += line;
  ASSERT_EQ(pclose(pipe), 0) << libraries;
  EXPECT_NE(libraries.find("libvulkan.so.1"), std::string::npos) << libraries;
  for (const char* forbidden : {"OpenImageIO", "libstdc++", "avcodec", "opencv"}) {
    EXPECT_EQ(libraries.find(forbidden), std::string::npos) << forbidden << "\n" << libraries;
  }
}

}  // namespace
}  // namespace gpuhist
