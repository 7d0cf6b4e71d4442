// `gpuhist video` on clips that FFmpeg's test sources generate at test time:
// frame counts, totals, and every frame's histograms equal cpu-reference's
// counts of the same frames decoded to RGB by the ffmpeg command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuhist/context.hpp"
#include "gpuhist/video_file.hpp"
#include "support/run_cli.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

using Bytes = std::vector<unsigned char>;

// "" when two byte strings are equal, else where they first differ.
std::string first_difference(const Bytes& a, const Bytes& b) {
  if (a == b) return {};
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
         ", first difference at byte " + std::to_string(i);
}

// Every frame of a video (or the picture) in `file` as the ffmpeg command
// line decodes it to raw `pixel_format` samples, written to `raw` and read
// back, one frame after another; nullopt when ffmpeg fails.
std::optional<Bytes> raw_frames(const fs::path& file, const std::string& pixel_format,
                                const fs::path& raw) {
  if (!test::ffmpeg("-i '" + file.string() + "' -f rawvideo -pix_fmt " + pixel_format + " '" +
                    raw.string() + "'")) {
    return std::nullopt;
  }
  std::ifstream in(raw, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class Video : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Reference histograms: the clip decoded by the ffmpeg command line to raw
  // RGB (rgb24 or rgb48le), each frame counted by cpu-reference.
  std::vector<Histogram> reference(const fs::path& clip, bool deep, std::uint32_t w,
                                   std::uint32_t h) {
    const fs::path raw = dir_ / "frames.raw";
    EXPECT_TRUE(test::ffmpeg("-i '" + clip.string() + "' -f rawvideo -pix_fmt " +
                             (deep ? "rgb48le" : "rgb24") + " -sws_flags bicubic '" + raw.string() +
                             "'"));
    std::ifstream in(raw, std::ios::binary);
    const PixelFormat format{ChannelLayout::RGB, deep ? SampleType::U16 : SampleType::U8};
    const std::size_t frame_bytes = std::size_t{w} * h * pixel_bytes(format);
    std::vector<std::uint32_t> storage((frame_bytes + 3) / 4);
    std::vector<Histogram> out;
    const Context cpu = Context::open("cpu");
    while (in.read(reinterpret_cast<char*>(storage.data()),
                   static_cast<std::streamsize>(frame_bytes))) {
      out.push_back(cpu.compute(ImageView::packed(storage.data(), w, h, format), {},
                                RunOptions{Strategy::CpuReference}));
    }
    return out;
  }

  void expect_frames_match(const fs::path& clip, bool deep, std::uint32_t w, std::uint32_t h,
                           std::size_t frames, const char* strategy) {
    const auto expected = reference(clip, deep, w, h);
    ASSERT_EQ(expected.size(), frames);
    const auto r = test::run_cli({"video", clip.string(), "--strategy", strategy});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(std::to_string(frames) + " frames in"), std::string::npos) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::size_t index = 0;
    while (std::getline(lines, line)) {
      ASSERT_LT(index, expected.size());
      const json row = json::parse(line);
      EXPECT_EQ(row["frame"], index);
      EXPECT_EQ(row["width"], w);
      EXPECT_EQ(row["height"], h);
      for (Channel c : kAllChannels) {
        const auto counts = expected[index].counts(c);
        const auto& got = row["histograms"][std::string(to_string(c))];
        ASSERT_EQ(got.size(), counts.size());
        std::uint64_t total = 0;
        for (std::size_t b = 0; b < counts.size(); ++b) {
          ASSERT_EQ(got[b].get<std::uint64_t>(), counts[b])
              << to_string(c) << " bin " << b << " frame " << index;
          total += counts[b];
        }
        EXPECT_EQ(total, std::uint64_t{w} * h);
      }
      ++index;
    }
    EXPECT_EQ(index, frames);
  }

  fs::path dir_;
};

TEST_F(Video, EightBitH264FramesMatchTheReference) {
  const fs::path clip = dir_ / "clip.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 12 -c:v libx264 -pix_fmt yuv420p '" +
      clip.string() + "'"));
  expect_frames_match(clip, false, 64, 48, 12, "gpu");
  expect_frames_match(clip, false, 64, 48, 12, "cpu");
}

TEST_F(Video, TenBitFramesGoThroughTheSixteenBitPath) {
  const fs::path clip = dir_ / "clip10.mkv";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=48x32:rate=5 -frames:v 6 -c:v ffv1 -pix_fmt yuv420p10le '" +
      clip.string() + "'"));
  expect_frames_match(clip, true, 48, 32, 6, "gpu-chunks-reduce");
  expect_frames_match(clip, true, 48, 32, 6, "gpu");
}

TEST_F(Video, CsvRows) {
  const fs::path clip = dir_ / "clip.avi";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i smptebars=size=32x24:rate=4 -frames:v 5 -c:v mpeg4 '" +
                           clip.string() + "'"));
  const fs::path out = dir_ / "rows.csv";
  const auto r = test::run_cli(
      {"video", clip.string(), "--format", "csv", "--bins", "16", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(out);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("frame,time,width,height,red_count,red_min", 0), 0U) << header;
  int rows = 0;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string frame, time, w, h, count;
    std::getline(cells, frame, ',');
    std::getline(cells, time, ',');
    std::getline(cells, w, ',');
    std::getline(cells, h, ',');
    std::getline(cells, count, ',');
    EXPECT_EQ(frame, std::to_string(rows));
    EXPECT_EQ(count, "768");  // 32 x 24 pixels
    ++rows;
  }
  EXPECT_EQ(rows, 5);
}

// A row's time in CSV is the JSON row's time, digit for digit: at 29.97
// frames a second, 3.4 hours in, neighbouring frames keep their own times.
TEST_F(Video, CsvTimesAreTheJsonTimes) {
  const fs::path clip = dir_ / "late.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=32x24:rate=30000/1001 -frames:v 6 " +
                           std::string("-c:v libx264 -output_ts_offset 12345.678 '") +
                           clip.string() + "'"));
  const auto csv = test::run_cli({"video", clip.string(), "--format", "csv", "--bins", "4",
                                  "--device", "cpu", "--no-progress"});
  const auto jsonl =
      test::run_cli({"video", clip.string(), "--bins", "4", "--device", "cpu", "--no-progress"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  ASSERT_EQ(jsonl.status, 0) << jsonl.err;
  std::istringstream csv_lines(csv.out), json_lines(jsonl.out);
  std::string header, line, json_line;
  std::getline(csv_lines, header);
  std::set<std::string> times;
  while (std::getline(csv_lines, line)) {
    ASSERT_TRUE(std::getline(json_lines, json_line));
    std::istringstream cells(line);
    std::string frame, time;
    std::getline(cells, frame, ',');
    std::getline(cells, time, ',');
    EXPECT_EQ(time, nlohmann::json::parse(json_line)["time"].dump()) << "frame " << frame;
    EXPECT_NEAR(std::stod(time), 12345.678 + std::stoi(frame) * 1001.0 / 30000.0, 0.002);
    times.insert(time);
  }
  EXPECT_EQ(times.size(), 6U);
}

TEST_F(Video, OverlayVideoHasEveryFrameAtTheRequestedSize) {
  const fs::path clip = dir_ / "clip.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 12 -c:v libx264 -pix_fmt yuv420p '" +
      clip.string() + "'"));
  const fs::path out = dir_ / "over.mp4";
  const auto r =
      test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(), "--size", "160x90"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("12 frames written"), std::string::npos) << r.err;
  // Read back with gpuhist itself: every frame, at the overlay size.
  const auto back = test::run_cli({"video", out.string()});
  ASSERT_EQ(back.status, 0) << back.err;
  std::istringstream lines(back.out);
  std::string line;
  int frames = 0;
  while (std::getline(lines, line)) {
    const json row = json::parse(line);
    EXPECT_EQ(row["width"], 160);
    EXPECT_EQ(row["height"], 90);
    ++frames;
  }
  EXPECT_EQ(frames, 12);
  // The GPU-drawn overlay gives the CPU-composed frames exactly: encoded
  // losslessly, the same frames decode from both.
  const fs::path by_gpu = dir_ / "gpu.mp4", by_cpu = dir_ / "cpu.mp4";
  const auto gpu = test::run_cli({"video", clip.string(), "--overlay", "-o", by_gpu.string(),
                                  "--size", "160x90", "--crf", "0", "--renderer", "gpu"});
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  const auto cpu = test::run_cli({"video", clip.string(), "--overlay", "-o", by_cpu.string(),
                                  "--size", "160x90", "--crf", "0", "--renderer", "cpu"});
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  const auto drawn = raw_frames(by_gpu, "yuv420p", by_gpu.string() + ".yuv");
  const auto composed = raw_frames(by_cpu, "yuv420p", by_cpu.string() + ".yuv");
  ASSERT_TRUE(drawn && composed);
  EXPECT_EQ(drawn->size(), std::size_t{160} * 90 * 3 / 2 * 12);
  EXPECT_EQ(first_difference(*drawn, *composed), "");
  const auto bad_renderer = test::run_cli(
      {"video", clip.string(), "--overlay", "-o", out.string(), "--renderer", "opengl"});
  EXPECT_EQ(bad_renderer.status, 2) << bad_renderer.err;
  const auto missing_output = test::run_cli({"video", clip.string(), "--overlay"});
  EXPECT_EQ(missing_output.status, 2) << missing_output.err;
  const auto bad_size =
      test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(), "--size", "1x1"});
  EXPECT_EQ(bad_size.status, 2) << bad_size.err;
}

// Per frame of a clip, as `gpuhist video` reads it: the luminance statistics
// and the share of the pixels whose luminance bin lies in [low, high].
struct FrameLuma {
  json stats;
  double between = 0.0;
};
std::vector<FrameLuma> frame_luma(const fs::path& clip, std::uint32_t low, std::uint32_t high) {
  const auto r = test::run_cli({"video", clip.string(), "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<FrameLuma> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const json row = json::parse(line);
    FrameLuma f{row["stats"]["luminance"], 0.0};
    const auto& counts = row["histograms"]["luminance"];
    std::uint64_t inside = 0;
    for (std::uint32_t b = low; b <= high; ++b) inside += counts[b].get<std::uint64_t>();
    f.between = static_cast<double>(inside) / f.stats["count"].get<double>();
    out.push_back(f);
  }
  return out;
}

TEST_F(Video, AdjustedVideos) {
  // A dull clip: testsrc with its contrast cut to 30%.
  const fs::path clip = dir_ / "dull.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=96x64:rate=10 -frames:v 8 -vf eq=contrast=0.3 "
                   "-c:v libx264 -pix_fmt yuv420p '" +
                   clip.string() + "'"));
  const auto before = frame_luma(clip, 32, 223);
  ASSERT_EQ(before.size(), 8U);
  const auto spread = [](const json& stats) {
    return stats["p99"].get<double>() - stats["p1"].get<double>();
  };
  // Equalised: every frame keeps its size, and its luminance spreads far wider.
  const fs::path equalized = dir_ / "equalized.mp4";
  auto r = test::run_cli({"video", clip.string(), "--adjust", "equalize", "-o", equalized.string(),
                          "--no-progress", "--apply", "gpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("8 frames written"), std::string::npos) << r.err;
  const auto after = frame_luma(equalized, 32, 223);
  ASSERT_EQ(after.size(), 8U);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_GT(spread(after[i].stats), 2.0 * spread(before[i].stats)) << "frame " << i;
  }
  // Everything on the GPU (frames counted in flight, adjusted, overlay drawn)
  // against everything on the CPU: the same pictures, encoded losslessly, so
  // the same decoded frames. (The encoded bytes are not compared: x264's frame
  // threads made the same pictures into different files in about one run in
  // twenty when the process ran under glibc's malloc checks.)
  for (const char* kind : {"equalize", "clahe"}) {
    const fs::path by_gpu = dir_ / "gpu.mp4", by_cpu = dir_ / "cpu.mp4";
    for (const auto& [where, out] : {std::pair{"gpu", by_gpu}, std::pair{"cpu", by_cpu}}) {
      r = test::run_cli({"video", clip.string(), "--adjust", kind, "--overlay", "-o", out.string(),
                         "--no-progress", "--crf", "0", "--apply", where, "--strategy", where,
                         "--renderer", where});
      ASSERT_EQ(r.status, 0) << r.err;
    }
    const auto frames = raw_frames(by_gpu, "yuv420p", by_gpu.string() + ".yuv");
    const auto reference = raw_frames(by_cpu, "yuv420p", by_cpu.string() + ".yuv");
    ASSERT_TRUE(frames && reference) << kind;
    EXPECT_EQ(frames->size(), std::size_t{96} * 64 * 3 / 2 * 8) << kind;
    EXPECT_EQ(first_difference(*frames, *reference), "") << kind;
  }
  // Thresholded: nearly every pixel black or white (the encoder blurs edges a little).
  const fs::path binary = dir_ / "binary.mp4";
  r = test::run_cli(
      {"video", clip.string(), "--adjust", "threshold", "-o", binary.string(), "--no-progress"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const FrameLuma& f : frame_luma(binary, 32, 223)) EXPECT_LT(f.between, 0.1);
  EXPECT_GT(before[0].between, 0.9);
  // What does not go together.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--adjust", "blur", "-o", binary.string()},
        std::vector<std::string>{"--adjust", "match", "-o", binary.string()},
        std::vector<std::string>{"--adjust", "equalize"},
        std::vector<std::string>{"--adjust", "clahe", "--tiles", "0x1", "-o", binary.string()},
        std::vector<std::string>{"--adjust", "equalize", "--percentiles", "5", "-o",
                                 binary.string()}}) {
    std::vector<std::string> full = {"video", clip.string()};
    full.insert(full.end(), args.begin(), args.end());
    const auto bad = test::run_cli(full);
    EXPECT_EQ(bad.status, 2) << args[1] << ": " << bad.err;
  }
  // A reference that cannot be read is an input error, in one line.
  const fs::path missing = binary.parent_path() / "missing.png";
  const auto unread = test::run_cli({"video", clip.string(), "--adjust", "match", "--reference",
                                     missing.string(), "-o", binary.string()});
  EXPECT_EQ(unread.status, 1) << unread.err;
  EXPECT_EQ(std::count(unread.err.begin(), unread.err.end(), '\n'), 1) << unread.err;
  EXPECT_NE(unread.err.find("missing.png"), std::string::npos) << unread.err;
}

// Each stream's packet count as ffprobe reads it: "video,12\naudio,53\n".
std::string stream_packets(const fs::path& file) {
  return test::ffprobe("-show_entries stream=codec_type,nb_frames -of csv=p=0", file)
      .value_or("ffprobe failed");
}

TEST_F(Video, OverlayCopiesTheAudio) {
  const fs::path clip = dir_ / "av.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 1.2 "
                   "-c:v libx264 -c:a aac '" +
                   clip.string() + "'"));
  const fs::path out = dir_ / "over.mp4";
  const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string source = stream_packets(clip);
  ASSERT_NE(source.find("audio,"), std::string::npos) << source;
  EXPECT_EQ(stream_packets(out), source);
  // The source's tags go with it, as ffmpeg copies them: its title, its audio's
  // and its video's language.
  const fs::path tagged = dir_ / "tagged.mp4";
  ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() +
                           "' -c copy -metadata title='My clip' -metadata:s:a:0 language=fra "
                           "-metadata:s:v:0 language=jpn -timecode 01:02:03:04 '" +
                           tagged.string() + "'"));
  for (const char* ext : {".mp4", ".mkv"}) {
    const fs::path written = dir_ / (std::string("tagged-over") + ext);
    ASSERT_EQ(test::run_cli({"video", tagged.string(), "--overlay", "-o", written.string()}).status,
              0);
    EXPECT_EQ(test::ffprobe("-show_entries format_tags=title -of csv=p=0", written),
              std::optional<std::string>("My clip\n"))
        << ext;
    EXPECT_EQ(test::ffprobe("-select_streams a:0 -show_entries stream_tags=language -of csv=p=0",
                            written),
              std::optional<std::string>("fra\n"))
        << ext;
    EXPECT_EQ(test::ffprobe("-select_streams v:0 -show_entries stream_tags=language -of csv=p=0",
                            written),
              std::optional<std::string>("jpn\n"))
        << ext;
    // Not its timecode, which would be a track of its own: a video and an audio stream.
    EXPECT_EQ(test::ffprobe("-show_entries stream=codec_type -of csv=p=0", written),
              std::optional<std::string>("video\naudio\n"))
        << ext;
  }
  // A silent source's tags go too.
  const fs::path silent = dir_ / "silent.mkv";
  ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() + "' -an -c copy -metadata title='Quiet clip' '" +
                           silent.string() + "'"));
  const fs::path written = dir_ / "silent-over.mp4";
  ASSERT_EQ(test::run_cli({"video", silent.string(), "--overlay", "-o", written.string()}).status,
            0);
  EXPECT_EQ(test::ffprobe("-show_entries format_tags=title -of csv=p=0", written),
            std::optional<std::string>("Quiet clip\n"));
  EXPECT_EQ(stream_packets(written).find("audio"), std::string::npos);
}

// The numbers ffprobe lists for `entry` of each video frame of a file, one a
// line ("0.100000"; a line may end in a comma, be blank or read "N/A", which
// are left out).
std::vector<double> frame_entries(const fs::path& file, const std::string& entry) {
  std::vector<double> values;
  const auto listing =
      test::ffprobe("-select_streams v:0 -show_entries frame=" + entry + " -of csv=p=0", file);
  if (!listing) return values;
  std::istringstream in(*listing);
  std::string line;
  while (std::getline(in, line)) {
    char* end = nullptr;
    const double value = std::strtod(line.c_str(), &end);
    if (end != line.c_str()) values.push_back(value);
  }
  return values;
}

// The presentation times of a file's video frames, in seconds.
std::vector<double> frame_times(const fs::path& file) {
  return frame_entries(file, "best_effort_timestamp_time");
}

// ffprobe's format start time of a file, in seconds.
double start_time(const fs::path& file) {
  const auto listing = test::ffprobe("-show_entries format=start_time -of csv=p=0", file);
  if (!listing) return -1.0;
  std::istringstream in(*listing);
  double t = -1.0;
  in >> t;
  return t;
}

// A source of variable frame rate (a screen recording that stops while
// nothing moves), in containers that declare its rate as 10 a second (MKV)
// or as its average (MP4, about 6), or whose clock starts at 1.4 s (MPEG-TS):
// the videos written show each frame when the source does, from its start.
TEST_F(Video, WrittenVideosKeepTheSourcesFrameTimes) {
  for (const std::string container : {"mkv", "mp4", "ts"}) {
    const fs::path clip = dir_ / ("vfr." + container);
    // Frames at 10 a second with frames 5 to 12 left out: 0.0-0.4 s, then 1.3-1.9 s; audio
    // beside them.
    ASSERT_TRUE(test::ffmpeg(
        "-f lavfi -i testsrc2=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -frames:v 12 "
        "-t 2 -vf \"select='not(between(n,5,12))'\" -vsync vfr -c:v libx264 -c:a aac '" +
        clip.string() + "'"))
        << container;
    const std::vector<double> source = frame_times(clip);
    const double start = start_time(clip);
    ASSERT_EQ(source.size(), 12U) << container;
    ASSERT_NEAR(source[5] - source[4], 0.9, 1e-6) << container;
    ASSERT_GE(start, 0.0) << container;
    for (const std::string mode : {"--overlay", "--adjust"}) {
      const std::string label = container + " " + mode;
      const fs::path out = dir_ / ("vfr-" + container + mode + ".mp4");
      std::vector<std::string> args = {"video", clip.string(), mode};
      if (mode == "--adjust") args.push_back("autolevel");
      args.insert(args.end(), {"-o", out.string(), "--no-progress"});
      const auto r = test::run_cli(args);
      ASSERT_EQ(r.status, 0) << label << ": " << r.err;
      const std::vector<double> written = frame_times(out);
      ASSERT_EQ(written.size(), source.size()) << label;
      for (std::size_t i = 0; i < source.size(); ++i) {
        EXPECT_NEAR(written[i], source[i] - start, 0.002) << label << " frame " << i;
      }
      // The audio starts with the video, as in the source.
      EXPECT_NEAR(start_time(out), 0.0, 0.05) << label;
    }
  }
}

// MPEG-TS recordings put end to end, with their audio: the second's clock
// starts again, earlier than the first's last frame. The written video goes
// on from there, a frame of the rate after it, the second's frames keeping
// their spacing (they were squeezed into a tick each), and its audio with it
// (the muxer refused audio going back in time: status 4).
TEST_F(Video, WrittenVideosGoOnWhereTheSourcesClockStartsAgain) {
  const fs::path first = dir_ / "first.ts", second = dir_ / "second.ts";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=25 -f lavfi -i sine=duration=1 "
                   "-t 1 -c:v libx264 -bf 0 -c:a aac -output_ts_offset 50 '" +
                   first.string() + "'"));
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=25 -f lavfi -i sine=duration=1 "
                   "-t 1 -c:v libx264 -bf 0 -c:a aac '" +
                   second.string() + "'"));
  const fs::path joined = dir_ / "joined.ts";
  std::ofstream(joined, std::ios::binary) << test::file_text(first) << test::file_text(second);
  for (const std::string container : {"mp4", "mkv"}) {
    const fs::path out = dir_ / ("joined." + container);
    const auto r = test::run_cli({"video", joined.string(), "--adjust", "equalize", "-o",
                                  out.string(), "--no-progress", "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << container << ": " << r.err;
    const std::vector<double> written = frame_times(out);
    ASSERT_EQ(written.size(), 50U) << container;
    for (std::size_t i = 1; i < written.size(); ++i) {
      EXPECT_NEAR(written[i] - written[i - 1], 0.04, 0.002) << container << " frame " << i;
    }
    // Both seconds of audio, after each other, the file decoding without an error.
    const auto audio =
        test::ffprobe("-select_streams a:0 -show_entries packet=pts_time -of csv=p=0", out);
    ASSERT_TRUE(audio.has_value()) << container;
    std::istringstream times(*audio);
    double last = -1.0, t = 0.0;
    while (times >> t) {
      EXPECT_GT(t, last) << container;
      last = t;
    }
    EXPECT_GT(last, 1.8) << container;
    EXPECT_TRUE(test::ffmpeg("-v error -xerror -i '" + out.string() + "' -f null -")) << container;
  }
}

// A rate a file's video stream declares, as ffprobe reads it ("48/5"):
// r_frame_rate (the codec's timing, else the container's, else one guessed
// from the frames) or avg_frame_rate (the container's).
double declared_rate(const fs::path& file, const std::string& entry) {
  const auto listing =
      test::ffprobe("-select_streams v:0 -show_entries stream=" + entry + " -of csv=p=0", file);
  double num = 0, den = 0;
  char slash = 0;
  std::istringstream in(listing.value_or(""));
  return in >> num >> slash >> den && slash == '/' && den > 0 ? num / den : -1.0;
}

// AVI times a stream's frames in ticks of its frame rate. A source of 30
// frames a second, then 10, whose container guesses its rate as about 18:
// a frame whose time falls on the tick of the frame before is left out (as
// the ffmpeg command line leaves it out) and said; every frame written shows
// within half a tick of its source frame's time, the last one too.
TEST_F(Video, AviLeavesOutFramesThatFallOnTheTickBefore) {
  // (Copied from MP4 to Matroska, whose reader then guesses the average rate.)
  const fs::path made = dir_ / "dense.mp4", clip = dir_ / "dense.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=30 -t 2 -vf "
                   "\"setpts='if(lt(N,20),N/30,(20+(N-20)*3)/30)/TB'\" -fps_mode passthrough "
                   "-c:v libx264 '" +
                   made.string() + "'"));
  ASSERT_TRUE(test::ffmpeg("-i '" + made.string() + "' -c copy '" + clip.string() + "'"));
  const std::vector<double> source = frame_times(clip);
  const double start = start_time(clip);
  const double rate = declared_rate(clip, "r_frame_rate");
  ASSERT_GT(source.size(), 30U);
  ASSERT_GT(rate, 12.0);
  ASSERT_LT(rate, 25.0);
  const fs::path out = dir_ / "dense.avi";
  const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(),
                                "--no-progress", "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string said = " of the source left out: the container times frames in ticks";
  const std::size_t at = r.err.find(said);
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::size_t from = r.err.rfind(": ", at - 2) + 2;
  // ("N frames" or "1 frame")
  const std::size_t left_out = std::stoul(r.err.substr(from, at - from));
  const std::vector<double> written = frame_times(out);
  ASSERT_GT(left_out, 0U);
  EXPECT_EQ(written.size() + left_out, source.size());
  EXPECT_NE(r.err.find(std::to_string(written.size()) + " frames written to"), std::string::npos)
      << r.err;
  // Each written frame is a source frame shown at its time, to half a tick.
  std::size_t next = 0;
  for (std::size_t i = 0; i < written.size(); ++i) {
    while (next < source.size() && source[next] - start < written[i] - 0.5 / rate - 1e-3) ++next;
    ASSERT_LT(next, source.size()) << "frame " << i;
    EXPECT_NEAR(written[i], source[next] - start, 0.5 / rate + 1e-3) << "frame " << i;
    ++next;
  }
  EXPECT_NEAR(written.back(), source.back() - start, 0.5 / rate + 1e-3);
}

// A rate of 9.6 frames a second (48/5, whose ticks MPEG-4 Part 2 reduces) in
// every container and codec: each frame at its time and lasting a frame, the
// stream declaring that rate, so that the ffmpeg command line, which makes
// raw output of a constant rate, gives one frame for each frame.
TEST_F(Video, WrittenVideosKeepTheFrameRateInEveryContainer) {
  const fs::path clip = dir_ / "rate.mkv";
  constexpr std::size_t kFrames = 5;
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=48/5 -frames:v 5 -c:v libx264 '" +
                           clip.string() + "'"));
  for (const auto& [file, codec] :
       std::vector<std::pair<std::string, std::string>>{{"h264.avi", "h264"},
                                                        {"mpeg4.avi", "mpeg4"},
                                                        {"mpeg4.mkv", "mpeg4"},
                                                        {"h264.mp4", "h264"},
                                                        {"h264.mkv", "h264"},
                                                        {"h264.ts", "h264"},
                                                        {"hevc.ts", "hevc"},
                                                        {"vp9.webm", "vp9"}}) {
    const fs::path out = dir_ / file;
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "--codec", codec, "-o",
                                  out.string(), "--no-progress"});
    ASSERT_EQ(r.status, 0) << file << ": " << r.err;
    const std::vector<double> times = frame_times(out);
    ASSERT_EQ(times.size(), kFrames) << file;
    for (std::size_t i = 0; i < times.size(); ++i) {
      EXPECT_NEAR(times[i] - times[0], static_cast<double>(i) / 9.6, 0.002)
          << file << " frame " << i;
    }
    for (const double d : frame_entries(out, "pkt_duration_time")) {
      EXPECT_NEAR(d, 1 / 9.6, 0.002) << file;
    }
    // ffprobe guesses it from the times where the stream declares none (within 1/48).
    EXPECT_NEAR(declared_rate(out, "r_frame_rate") / 9.6, 1.0, 0.005) << file;
    // Every container but MPEG-TS has a place for it.
    if (out.extension() != ".ts")
      EXPECT_NEAR(declared_rate(out, "avg_frame_rate"), 9.6, 0.01) << file;
    const fs::path raw = dir_ / "rate.gray";
    ASSERT_TRUE(
        test::ffmpeg("-i '" + out.string() + "' -f rawvideo -pix_fmt gray '" + raw.string() + "'"))
        << file;
    EXPECT_EQ(fs::file_size(raw), kFrames * 64 * 48) << file;
  }
}

// The codec name and decoded frame count ffprobe reads: "h264,12".
std::string codec_and_frames(const fs::path& file) {
  const auto listing = test::ffprobe(
      "-count_frames -select_streams v:0 -show_entries stream=codec_name,nb_read_frames "
      "-of csv=p=0",
      file);
  return listing ? listing->substr(0, listing->find('\n')) : "ffprobe failed";
}

// A stream piped in is read once, by the frames' reader: every frame is
// written, and the audio, which would take a second reading, is left out
// with a warning. Rows can go to standard output named "-".
TEST_F(Video, PipedStreamsAreReadOnce) {
  const fs::path clip = dir_ / "piped.ts";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=96x64:rate=10 -itsoffset 0.5 -f lavfi -i sine=duration=2 "
      "-frames:v 20 -c:v libx264 -c:a mp2 -f mpegts '" +
      clip.string() + "'"));
  const fs::path out = dir_ / "piped.mkv";
  const auto r = test::run_cli(
      {"video", "-", "--overlay", "-o", out.string(), "--no-progress", "--device", "cpu"}, {},
      clip);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gpuhist: warning: " + out.string() +
                       ": audio not copied: the input is not a regular file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(codec_and_frames(out), "h264,20");
  const auto from_file = test::run_cli({"video", clip.string(), "--device", "cpu", "-o", "-"});
  const auto from_pipe = test::run_cli({"video", "-", "--device", "cpu"}, {}, clip);
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  ASSERT_EQ(from_pipe.status, 0) << from_pipe.err;
  EXPECT_EQ(std::count(from_file.out.begin(), from_file.out.end(), '\n'), 20);
  EXPECT_EQ(from_pipe.out, from_file.out);
  EXPECT_FALSE(fs::exists("-"));
  // An MP4 whose index comes after its frames cannot be read from a pipe:
  // the errors say why, and what writes one that can.
  const fs::path late = dir_ / "index-last.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=30,noise=alls=30:allf=t "
                   "-frames:v 30 -c:v libx264 '" +
                   late.string() + "'"));
  ASSERT_GT(fs::file_size(late), 200000U);
  const auto piped_late = test::run_cli({"video", "-", "--device", "cpu"}, {}, late);
  EXPECT_EQ(piped_late.status, 1);
  EXPECT_NE(piped_late.err.find("an MP4 or MOV file read from a pipe needs its index before its "
                                "frames (ffmpeg -movflags +faststart writes it so)"),
            std::string::npos)
      << piped_late.err;
  // Messages name the input as the user did: standard input, not /dev/stdin.
  EXPECT_EQ(piped_late.err.rfind("gpuhist: error: standard input: ", 0), 0U) << piped_late.err;
  EXPECT_EQ(piped_late.err.find("/dev/stdin"), std::string::npos) << piped_late.err;
  const fs::path garbage = dir_ / "garbage.bin";
  std::ofstream(garbage) << "not a video";
  const auto piped_garbage = test::run_cli({"video", "-", "--device", "cpu"}, {}, garbage);
  EXPECT_EQ(piped_garbage.status, 1);
  EXPECT_EQ(piped_garbage.err.rfind("gpuhist: error: standard input: cannot read video: ", 0), 0U)
      << piped_garbage.err;
}

// A raw H.264 or H.265 stream carries no times: its frames are a frame of its
// rate apart, as the ffmpeg command line times them, in the rows and in a
// video written from them. Frame k's time is k / 30 rounded once (frame 42 at
// 1.4 exactly, not at 42 additions of 1/30).
TEST_F(Video, RawStreamsAreTimedByTheirRate) {
  for (const std::string codec : {"h264", "hevc"}) {
    const fs::path clip = dir_ / ("raw." + codec);
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=96x64:rate=30 -frames:v 45 -c:v lib" +
                             std::string(codec == "h264" ? "x264 -bf 2" : "x265") + " '" +
                             clip.string() + "'"))
        << codec;
    const auto r = test::run_cli({"video", clip.string(), "--device", "cpu", "--no-progress"});
    ASSERT_EQ(r.status, 0) << codec << ": " << r.err;
    std::istringstream lines(r.out);
    std::size_t index = 0;
    for (std::string line; std::getline(lines, line); ++index) {
      EXPECT_EQ(json::parse(line)["time"].get<double>(), static_cast<double>(index) / 30)
          << codec << " frame " << index;
    }
    EXPECT_EQ(index, 45U) << codec;
    const fs::path out = dir_ / ("raw-" + codec + ".mp4");
    const auto w = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(),
                                  "--device", "cpu", "--no-progress"});
    ASSERT_EQ(w.status, 0) << codec << ": " << w.err;
    const std::vector<double> times = frame_times(out);
    ASSERT_EQ(times.size(), 45U) << codec;
    for (std::size_t i = 0; i < times.size(); ++i) {
      EXPECT_NEAR(times[i] - times[0], static_cast<double>(i) / 30, 0.002) << codec << " " << i;
    }
    EXPECT_NEAR(declared_rate(out, "r_frame_rate"), 30.0, 0.01) << codec;
  }
  // H.264 with B-frames in AVI: its last two frames come out of the decoder
  // with no time, a frame after the last that had one (0.36 + 0.04 at 0.4,
  // not 0.39999999999999997).
  const fs::path avi = dir_ / "b-frames.avi";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=96x64:rate=25 -frames:v 10 -c:v libx264 "
                   "-bf 2 '" +
                   avi.string() + "'"));
  ASSERT_NE(test::ffprobe("-show_entries frame=best_effort_timestamp -of csv=p=0", avi)
                .value_or("")
                .find("N/A\nN/A\n"),
            std::string::npos);
  const auto r = test::run_cli({"video", avi.string(), "--device", "cpu", "--no-progress"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<double> times;
  for (std::string line; std::getline(lines, line);) times.push_back(json::parse(line)["time"]);
  ASSERT_EQ(times.size(), 10U);
  const auto first = static_cast<int>(std::lround(times[0] * 25));
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i], static_cast<double>(first + static_cast<int>(i)) / 25) << "frame " << i;
  }
}

// The shape of a pixel, as ffprobe reads it ("16:15").
std::string pixel_shape(const fs::path& file) {
  return test::ffprobe("-select_streams v:0 -show_entries stream=sample_aspect_ratio -of csv=p=0",
                       file)
      .value_or("ffprobe failed");
}

// An anamorphic clip (PAL 4:3 at 360x288, pixels 16:15; a turned one) is
// written with its pixels' shape, turned with it, as ffmpeg writes it.
TEST_F(Video, AnamorphicClipsKeepTheirPixelShape) {
  const fs::path clip = dir_ / "pal.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=360x288:rate=10 -frames:v 3 -vf setsar=16/15 "
                   "-c:v libx264 '" +
                   clip.string() + "'"));
  const fs::path turned = dir_ / "pal-turned.mp4";
  ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() + "' -c copy -metadata:s:v:0 rotate=90 '" +
                           turned.string() + "'"));
  ASSERT_EQ(pixel_shape(clip), "16:15\n");
  for (const auto& [source, mode, want] :
       std::vector<std::tuple<fs::path, std::string, std::string>>{
           {clip, "--overlay", "16:15\n"},
           {clip, "--adjust", "16:15\n"},
           {turned, "--overlay", "15:16\n"}}) {
    const fs::path out = dir_ / "pal-out.mkv";
    std::vector<std::string> args = {"video", source.string(), mode};
    if (mode == "--adjust") args.push_back("equalize");
    args.insert(args.end(), {"-o", out.string(), "--device", "cpu", "--no-progress"});
    const auto r = test::run_cli(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(pixel_shape(out), want) << source << " " << mode;
  }
  VideoReader reader(turned);
  reader.set_upright(true);
  EXPECT_EQ(reader.pixel_aspect(), (PixelAspect{15, 16}));
  EXPECT_EQ(VideoReader(clip).pixel_aspect(), (PixelAspect{16, 15}));
}

// The source's audio goes into every container that holds its codec (AAC in
// MPEG-TS, which FFmpeg's muxer does not vouch for); where one does not (AAC
// in WebM), the video is written with a warning naming the codec.
TEST_F(Video, AudioIsCopiedWhereTheContainerHoldsIt) {
  const fs::path clip = dir_ / "aac.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 1 "
                   "-c:v libx264 -c:a aac '" +
                   clip.string() + "'"));
  const fs::path ts = dir_ / "aac.ts";
  const auto r = test::run_cli(
      {"video", clip.string(), "--overlay", "-o", ts.string(), "--device", "cpu", "--no-progress"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(stream_packets(ts).find("audio,"), std::string::npos) << stream_packets(ts);
  // AVI counts time in frames: the AAC priming packet before the start, copied,
  // moved the video a frame late (an empty chunk after the first frame). Left
  // out, as ffmpeg leaves it out of a stream copy, every frame is in its place.
  const fs::path avi = dir_ / "aac.avi";
  const auto a = test::run_cli({"video", clip.string(), "--overlay", "-o", avi.string(), "--device",
                                "cpu", "--no-progress"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(test::ffprobe("-select_streams v -show_entries packet=dts -of csv=p=0", avi)
                .value_or("ffprobe failed"),
            "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n");
  // Every audio packet from the start on is there.
  const auto audio_from_start = [](const fs::path& file) {
    std::istringstream lines(
        test::ffprobe("-select_streams a -show_entries packet=pts -of csv=p=0", file).value_or(""));
    int n = 0;
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line[0] >= '0' && line[0] <= '9') ++n;
    }
    return n;
  };
  EXPECT_GT(audio_from_start(clip), 40);
  EXPECT_EQ(audio_from_start(avi), audio_from_start(clip));
  const fs::path webm = dir_ / "aac.webm";
  const auto v = test::run_cli({"video", clip.string(), "--overlay", "--codec", "vp9", "-o",
                                webm.string(), "--device", "cpu", "--no-progress"});
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_NE(v.err.find("gpuhist: warning: " + webm.string() +
                       ": audio (aac) not copied: the '.webm' container does not hold it"),
            std::string::npos)
      << v.err;
  EXPECT_EQ(codec_and_frames(webm), "vp9,10");
  // FLAC, which MPEG-TS would carry only as private data that players skip.
  const fs::path flac = dir_ / "flac.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 1 "
                   "-c:v libx264 -c:a flac '" +
                   flac.string() + "'"));
  const fs::path flac_ts = dir_ / "flac.ts";
  const auto f = test::run_cli({"video", flac.string(), "--overlay", "-o", flac_ts.string(),
                                "--device", "cpu", "--no-progress"});
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.err.find("audio (flac) not copied: the '.ts' container does not hold it"),
            std::string::npos)
      << f.err;
  EXPECT_EQ(stream_packets(flac_ts).find("audio,"), std::string::npos) << stream_packets(flac_ts);
  // Muxers that say they hold a codec and then refuse it (FLAC in MP4 is
  // experimental, Opus in MOV unknown): the video is written, the audio named.
  const fs::path opus = dir_ / "opus.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 1 "
                   "-c:v libx264 -c:a libopus '" +
                   opus.string() + "'"));
  for (const auto& [source, out, codec] :
       {std::tuple{flac, dir_ / "flac.mp4", "flac"}, std::tuple{flac, dir_ / "flac.mov", "flac"},
        std::tuple{opus, dir_ / "opus.mov", "opus"}}) {
    for (const char* mode : {"--overlay", "--adjust"}) {
      std::vector<std::string> args = {"video", source.string(), mode};
      if (std::string(mode) == "--adjust") args.push_back("equalize");
      args.insert(args.end(), {"-o", out.string(), "--device", "cpu", "--no-progress"});
      const auto w = test::run_cli(args);
      ASSERT_EQ(w.status, 0) << out << ": " << w.err;
      EXPECT_NE(w.err.find("gpuhist: warning: " + out.string() + ": audio (" + codec +
                           ") not copied: the '" + out.extension().string() +
                           "' container does not hold it"),
                std::string::npos)
          << w.err;
      EXPECT_EQ(codec_and_frames(out), "h264,10") << out;
      EXPECT_EQ(stream_packets(out).find("audio,"), std::string::npos) << stream_packets(out);
    }
  }
}

// A file is read and written by its name, even a name FFmpeg would take for
// a URL ("concat:", "pipe:").
TEST_F(Video, FilesNamedLikeUrlsAreTheFilesNamed) {
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 5 -c:v libx264 '" +
                           (dir_ / "concat:other.mp4").string() + "'"));
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 3 -c:v libx264 '" +
                           (dir_ / "other.mp4").string() + "'"));
  const fs::path was = fs::current_path();
  fs::current_path(dir_);
  const auto rows = test::run_cli({"video", "concat:other.mp4", "--device", "cpu"});
  const auto written = test::run_cli(
      {"video", "concat:other.mp4", "--overlay", "-o", "pipe:out.mkv", "--device", "cpu"});
  fs::current_path(was);
  ASSERT_EQ(rows.status, 0) << rows.err;
  EXPECT_EQ(std::count(rows.out.begin(), rows.out.end(), '\n'), 5);
  ASSERT_EQ(written.status, 0) << written.err;
  EXPECT_EQ(codec_and_frames(dir_ / "pipe:out.mkv"), "h264,5");
}

// A picture named like a numbered sequence ("img%03d.png") is that one
// picture, not img001.png, img002.png, ... beside it, nor missing where
// they are not.
TEST_F(Video, APictureNamedLikeASequenceIsThatPicture) {
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48 -frames:v 1 '" +
                           (dir_ / "one.png").string() + "'"));
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24 -frames:v 1 '" +
                           (dir_ / "other.png").string() + "'"));
  fs::create_directory(dir_ / "alone");
  fs::copy_file(dir_ / "one.png", dir_ / "alone" / "pic%d.png");
  fs::copy_file(dir_ / "one.png", dir_ / "img%03d.png");
  for (const char* n : {"img001.png", "img002.png", "img003.png"}) {
    fs::copy_file(dir_ / "other.png", dir_ / n);
  }
  for (const fs::path& picture : {dir_ / "img%03d.png", dir_ / "alone" / "pic%d.png"}) {
    const auto rows =
        test::run_cli({"video", picture.string(), "--device", "cpu", "--format", "jsonl"});
    ASSERT_EQ(rows.status, 0) << picture << ": " << rows.err;
    ASSERT_EQ(std::count(rows.out.begin(), rows.out.end(), '\n'), 1) << rows.out;
    EXPECT_EQ(nlohmann::json::parse(rows.out)["width"], 64) << rows.out;
  }
  const fs::path out = dir_ / "sequence-named.mkv";
  const auto written = test::run_cli({"video", (dir_ / "img%03d.png").string(), "--overlay", "-o",
                                      out.string(), "--device", "cpu", "--no-progress"});
  ASSERT_EQ(written.status, 0) << written.err;
  EXPECT_EQ(codec_and_frames(out), "h264,1");
}

TEST_F(Video, OverlayEncoderCrfAndPreset) {
  const fs::path clip = dir_ / "clip.mp4";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=96x64:rate=10 -frames:v 12 -c:v libx264 '" +
                           clip.string() + "'"));
  const std::vector<std::pair<std::string, std::string>> codecs = {
      {"h264", "h264"}, {"hevc", "hevc"}, {"vp9", "vp9"}, {"av1", "av1"}, {"mpeg4", "mpeg4"}};
  for (const auto& [option, name] : codecs) {
    const fs::path out = dir_ / ("over-" + option + ".mkv");
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(),
                                  "--codec", option, "--no-progress"});
    ASSERT_EQ(r.status, 0) << option << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << option << ": " << r.err;
    EXPECT_EQ(codec_and_frames(out), name + ",12") << option;
  }
  // HEVC in MP4 and QuickTime is tagged hvc1, as Apple's players take it.
  for (const char* container : {"mp4", "mov"}) {
    const fs::path out = dir_ / (std::string("hevc.") + container);
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(),
                                  "--codec", "hevc", "--no-progress"});
    ASSERT_EQ(r.status, 0) << container << ": " << r.err;
    EXPECT_EQ(codec_and_frames(out), "hevc,12") << container;
    const auto tag =
        test::ffprobe("-select_streams v:0 -show_entries stream=codec_tag_string -of csv=p=0", out);
    ASSERT_TRUE(tag);
    EXPECT_EQ(tag->substr(0, tag->find('\n')), "hvc1") << container;
  }
  // Lower crf, more bits (0: lossless); a slower preset is taken.
  std::uintmax_t sizes[3] = {};
  for (const int crf : {0, 4, 48}) {
    const fs::path out = dir_ / ("crf" + std::to_string(crf) + ".mp4");
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(), "--crf",
                                  std::to_string(crf), "--preset", "medium"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(codec_and_frames(out), "h264,12");
    sizes[crf == 0 ? 0 : crf == 4 ? 1 : 2] = fs::file_size(out);
  }
  EXPECT_GT(sizes[0], sizes[1]);
  EXPECT_GT(sizes[1], 2 * sizes[2]);
  // AV1's presets taken: the slowest and the fastest code differently.
  std::string av1[2];
  for (const int preset : {8, 13}) {
    const fs::path written = dir_ / ("av1-" + std::to_string(preset) + ".mkv");
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", written.string(),
                                  "--codec", "av1", "--preset", std::to_string(preset)});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(codec_and_frames(written), "av1,12");
    // (The packets' sizes: a Matroska file's segment identity differs every run.)
    const auto sizes_of =
        test::ffprobe("-select_streams v:0 -show_entries packet=size -of csv=p=0", written);
    ASSERT_TRUE(sizes_of);
    av1[preset == 8 ? 0 : 1] = *sizes_of;
  }
  EXPECT_NE(av1[0], av1[1]);

  const fs::path out = dir_ / "refused.mp4";
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--codec", "theora"}, "unknown video codec 'theora'"},
      {{"--crf", "52"}, "out of H.264's range 0..51"},
      {{"--codec", "vp9", "--crf", "64"}, "out of VP9's range 0..63"},
      {{"--codec", "av1", "--crf", "0"}, "out of AV1's range 1..63"},
      {{"--codec", "mpeg4", "--crf", "20"}, "not taken by the MPEG-4 encoder"},
      {{"--preset", "fastest"}, "unknown preset 'fastest' for H.264"},
      {{"--codec", "av1", "--preset", "14"}, "unknown preset '14' for AV1"},
      // SVT-AV1 codes presets 0..7 as 8 when frames are coded in order.
      {{"--codec", "av1", "--preset", "7"}, "unknown preset '7' for AV1 (8..13"},
      {{"--codec", "vp9", "--preset", "fast"}, "which takes none"},
  };
  for (const auto& [extra, message] : refused) {
    std::vector<std::string> args = {"video", clip.string(), "--overlay", "-o", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.status, 2) << message;
    test::expect_one_line_error(r, message);
    EXPECT_FALSE(fs::exists(out)) << message;
  }
  const auto rows = test::run_cli({"video", clip.string(), "--codec", "hevc"});
  EXPECT_EQ(rows.status, 2);
  test::expect_one_line_error(rows, "go with --overlay or --adjust");
}

// --space ycbcr against ffmpeg's own planes: the clip written out as raw
// video in its decoded pixel format (a copy, no conversion), each plane's
// levels counted here.
struct PlaneCase {
  std::string encode;  // ffmpeg options making the clip
  std::string file;
  std::string raw_format;  // its decoded pixel format
  std::uint32_t w, h, chroma_w, chroma_h, depth;
  std::string range;
};

TEST_F(Video, YCbCrPlanesAreTheDecodedLevels) {
  const std::vector<PlaneCase> cases = {
      {"-c:v libx264 -pix_fmt yuv420p", "a.mp4", "yuv420p", 98, 54, 49, 27, 8, "unspecified"},
      {"-c:v libx264 -pix_fmt yuv420p -bsf:v h264_metadata=video_full_range_flag=0", "b.mp4", "yuv420p", 64, 48, 32, 24, 8,
       "limited"},
      {"-c:v mjpeg -pix_fmt yuvj422p", "c.avi", "yuvj422p", 74, 40, 37, 40, 8, "full"},
      {"-c:v libx264 -pix_fmt yuv444p", "d.mkv", "yuv444p", 32, 16, 32, 16, 8, "limited"},
      {"-c:v libx264 -pix_fmt yuv420p10le", "e.mkv", "yuv420p10le", 50, 30, 25, 15, 10,
       "limited"},
      {"-c:v ffv1 -pix_fmt gray", "f.mkv", "gray", 30, 8, 0, 0, 8, "full"},
      // 16-bit planes are counted in the decoder's own buffers, as 8-bit ones.
      {"-c:v ffv1 -pix_fmt yuv420p16le", "g.mkv", "yuv420p16le", 22, 14, 11, 7, 16, "limited"},
      {"-c:v ffv1 -pix_fmt gray16le", "h.mkv", "gray16le", 18, 6, 0, 0, 16, "full"},
  };
  for (const PlaneCase& c : cases) {
    const fs::path clip = dir_ / c.file;
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=" + std::to_string(c.w) + "x" +
                             std::to_string(c.h) + ":rate=10 -frames:v 4 " + c.encode + " '" +
                             clip.string() + "'"))
        << c.file;
    const auto decoded = raw_frames(clip, c.raw_format, dir_ / (c.file + ".yuv"));
    ASSERT_TRUE(decoded);
    const Bytes& bytes = *decoded;
    const std::uint32_t bins = 1U << c.depth;  // one bin per level
    const auto r = test::run_cli({"video", clip.string(), "--space", "ycbcr", "--bins",
                                  std::to_string(bins), "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << c.file << ": " << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::size_t at = 0, frames = 0;
    const std::size_t sample = c.depth > 8 ? 2 : 1;
    while (std::getline(lines, line)) {
      const json row = json::parse(line);
      EXPECT_EQ(row["pixel_format"], c.raw_format) << c.file;
      EXPECT_EQ(row["range"], c.range) << c.file;
      EXPECT_EQ(row["depth"], c.depth) << c.file;
      const std::vector<std::string> keys =
          c.chroma_w == 0 ? std::vector<std::string>{"y"}
                          : std::vector<std::string>{"y", "cb", "cr"};
      EXPECT_EQ(row["histograms"].size(), keys.size()) << c.file;
      for (const std::string& key : keys) {
        const std::size_t pixels = key == "y" ? std::size_t{c.w} * c.h
                                              : std::size_t{c.chroma_w} * c.chroma_h;
        ASSERT_LE(at + pixels * sample, bytes.size()) << c.file;
        std::vector<std::uint64_t> expected(bins, 0);
        for (std::size_t i = 0; i < pixels; ++i, at += sample) {
          const unsigned level = sample == 1 ? bytes[at] : bytes[at] | (bytes[at + 1] << 8U);
          ++expected[level];
        }
        EXPECT_EQ(row["histograms"][key].get<std::vector<std::uint64_t>>(), expected)
            << c.file << " frame " << frames << " " << key;
      }
      ++frames;
    }
    EXPECT_EQ(frames, 4U) << c.file;
    EXPECT_EQ(at, bytes.size()) << c.file;
  }
  // A format whose planes are not one component each is refused, with its name.
  const fs::path nv12 = dir_ / "nv12.nut";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=32x16:rate=10 -frames:v 2 -c:v rawvideo "
                           "-pix_fmt nv12 '" + nv12.string() + "'"));
  const auto refused = test::run_cli({"video", nv12.string(), "--space", "ycbcr"});
  EXPECT_EQ(refused.status, 1);
  test::expect_one_line_error(refused,
                              "the stream is nv12 (leave out --space ycbcr to count it as RGB)");
  const auto bad = test::run_cli({"video", nv12.string(), "--space", "yuv"});
  EXPECT_EQ(bad.status, 2);
  test::expect_one_line_error(bad, "unknown --space 'yuv'");
  // Luminance weights have nothing to weigh in the planes.
  const auto weighed = test::run_cli({"video", nv12.string(), "--space", "ycbcr", "--luma", "601"});
  EXPECT_EQ(weighed.status, 2);
  test::expect_one_line_error(weighed, "--space ycbcr counts the Y' plane as decoded");
}

// compute --space ycbcr: a JPEG's planes as FFmpeg's decoder hands them over,
// against ffmpeg's own raw planes of the same file (4:2:0, 4:2:2, 4:4:4 and
// grey from FFmpeg's encoder at odd sizes, and the bundled photograph from
// another encoder); other formats and damaged files are their file's error,
// the rest still counted; --merge adds the planes up.
TEST_F(Video, ComputeCountsAJpegsPlanesAsDecoded) {
  struct Jpeg {
    std::string file, encode;
  };
  // Grey first: the total then gains Cb and Cr from the files after it.
  const std::vector<Jpeg> made = {
      {"grey.jpg", "-s 40x9 -pix_fmt gray"},
      {"s420.jpg", "-s 101x37 -pix_fmt yuvj420p"},
      {"s422.jpg", "-s 64x30 -pix_fmt yuvj422p"},
      {"s444.jpg", "-s 33x17 -pix_fmt yuvj444p"},
  };
  std::vector<fs::path> files;
  for (const Jpeg& j : made) {
    files.push_back(dir_ / j.file);
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=320x240 -frames:v 1 " + j.encode +
                             " -q:v 4 '" + files.back().string() + "'"))
        << j.file;
  }
  files.push_back(fs::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg");
  std::vector<std::string> args = {"compute", "--space", "ycbcr", "--format", "json", "--merge",
                                   "--device", "cpu", "--no-progress"};
  for (const fs::path& f : files) args.push_back(f.string());
  const auto r = test::run_cli(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const json entries = json::parse(r.out);
  ASSERT_EQ(entries.size(), files.size() + 1);
  std::map<std::string, std::vector<std::uint64_t>> total;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const json& e = entries[i];
    const std::string name = files[i].filename().string();
    EXPECT_EQ(e["space"], "ycbcr") << name;
    EXPECT_EQ(e["range"], "full") << name;
    const std::string pixel_format = e["pixel_format"];
    const auto decoded = raw_frames(files[i], pixel_format, dir_ / (name + ".raw"));
    ASSERT_TRUE(decoded);
    const Bytes& bytes = *decoded;
    const std::size_t w = e["width"], h = e["height"];
    const bool grey = pixel_format == "gray";
    const std::size_t cw = pixel_format == "yuvj444p" ? w : (w + 1) / 2;
    const std::size_t ch = pixel_format == "yuvj420p" ? (h + 1) / 2 : h;
    ASSERT_EQ(bytes.size(), w * h + (grey ? 0 : 2 * cw * ch)) << name << " " << pixel_format;
    std::size_t at = 0;
    for (const char* key : {"y", "cb", "cr"}) {
      if (grey && std::string(key) != "y") {
        EXPECT_FALSE(e["histograms"].contains(key)) << name;
        continue;
      }
      const std::size_t n = std::string(key) == "y" ? w * h : cw * ch;
      std::vector<std::uint64_t> expected(256, 0);
      for (std::size_t k = 0; k < n; ++k) ++expected[bytes[at++]];
      EXPECT_EQ(e["histograms"][key].get<std::vector<std::uint64_t>>(), expected)
          << name << " " << key;
      auto& sum = total[key];
      sum.resize(256, 0);
      for (std::size_t b = 0; b < 256; ++b) sum[b] += expected[b];
    }
  }
  const json& merged = entries.back();
  EXPECT_EQ(merged["file"], "(total)");
  EXPECT_EQ(merged["files"], files.size());
  ASSERT_EQ(total.size(), 3U);
  for (const auto& [key, counts] : total) {
    ASSERT_TRUE(merged["histograms"].contains(key)) << key;
    EXPECT_EQ(merged["histograms"][key].get<std::vector<std::uint64_t>>(), counts) << key;
  }

  // A PNG and a truncated JPEG are their files' errors; the JPEG between them is counted.
  const fs::path cut = dir_ / "cut.jpg";
  {
    std::ifstream whole(files[0], std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(whole)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary) << data.substr(0, data.size() / 2);
  }
  const auto mixed = test::run_cli({"compute", "--space", "ycbcr", "--format", "json",
                                    "--device", "cpu", "--no-progress",
                                    (fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png").string(),
                                    files[1].string(), cut.string()});
  EXPECT_EQ(mixed.status, 1);
  EXPECT_NE(mixed.err.find("coffee.png: Y'CbCr planes are counted from JPEG files, "
                           "and this is a PNG file (leave out --space ycbcr to count it as RGB)"),
            std::string::npos)
      << mixed.err;
  EXPECT_NE(mixed.err.find("cut.jpg: corrupt or truncated JPEG"), std::string::npos) << mixed.err;
  const json counted = json::parse(mixed.out);
  ASSERT_EQ(counted.size(), 1U);
  EXPECT_EQ(counted[0]["file"], files[1].string());
  // As JSON, without --format too; no other format, and only rgb or ycbcr.
  const auto plain = test::run_cli(
      {"compute", "--space", "ycbcr", "--device", "cpu", "--no-progress", files[1].string()});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(json::parse(plain.out), counted[0]);
  EXPECT_EQ(
      test::run_cli({"compute", "--space", "ycbcr", "--format", "table", files[0].string()}).status,
      2);
  EXPECT_EQ(test::run_cli({"compute", "--space", "ycbcr", "--format", "json", "--isolate",
                           files[0].string()})
                .status,
            2);
  const auto bad = test::run_cli({"compute", "--space", "yuv", files[0].string()});
  EXPECT_EQ(bad.status, 2);
  test::expect_one_line_error(bad, "unknown --space 'yuv'");
}

// A frame whose JPEG data is wiped in the middle of an MJPEG clip: reported,
// skipped, and every other frame still counted.
TEST_F(Video, DamagedFrameIsReportedAndSkipped) {
  const fs::path damaged = dir_ / "damaged.avi";
  ASSERT_TRUE(test::damaged_mjpeg_clip(dir_.string(), damaged.string()));

  const auto r = test::run_cli({"video", damaged.string()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("damaged.avi: damaged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("9 frames in"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 9);
}

// Of several video streams, the one the ffmpeg command line picks is
// counted (its score: pixels, + 5000000 for a default one). The witness is
// ffmpeg's own stream mapping of each file.
TEST_F(Video, TheVideoStreamFfmpegPicksIsCounted) {
  const fs::path small = dir_ / "small.mkv", large = dir_ / "large.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=10 -t 0.5 -c:v libx264 '" +
                           small.string() + "'"));
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i smptebars=size=640x360:rate=10 -t 0.5 -c:v libx264 '" +
                           large.string() + "'"));
  for (const std::string& dispositions :
       {std::string("-disposition:v:0 0 -disposition:v:1 0"),
        std::string("-disposition:v:0 default -disposition:v:1 0"),
        std::string("-disposition:v:0 0 -disposition:v:1 default")}) {
    const fs::path both = dir_ / "both.mkv";
    fs::remove(both);
    ASSERT_TRUE(test::ffmpeg("-i '" + small.string() + "' -i '" + large.string() +
                             "' -map 0:v -map 1:v -c copy " + dispositions + " '" + both.string() +
                             "'"));
    const std::string said =
        test::command_output("ffmpeg -nostdin -i '" + both.string() + "' -f null - 2>&1");
    const std::size_t mapped = said.find("Stream #0:");
    ASSERT_NE(said.find(" -> #0:0", mapped), std::string::npos) << said;
    const std::size_t arrow = said.find(" -> #0:0");
    const char picked = said[said.rfind("Stream #0:", arrow) + 10];
    const auto r = test::run_cli({"video", both.string(), "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(picked == '0' ? "\"width\":320" : "\"width\":640"), std::string::npos)
        << dispositions << ": ffmpeg picks stream " << picked << "; " << r.out.substr(0, 80);
  }
  // Of two audio streams, neither default, the one of more channels is copied.
  const fs::path voices = dir_ / "voices.mkv";
  ASSERT_TRUE(test::ffmpeg("-i '" + small.string() +
                           "' -f lavfi -i sine=frequency=440:duration=0.5 -f lavfi -i "
                           "sine=frequency=880:duration=0.5 -map 0:v -map 1:a -map 2:a -c:v copy "
                           "-c:a aac -ac:a:0 1 -ac:a:1 2 -b:a:0 192k -b:a:1 32k -disposition:a:0 0 "
                           "-disposition:a:1 0 '" +
                           voices.string() + "'"));
  const fs::path over = dir_ / "voices-over.mkv";
  ASSERT_EQ(test::run_cli({"video", voices.string(), "--overlay", "-o", over.string()}).status, 0);
  EXPECT_EQ(test::ffprobe("-select_streams a -show_entries stream=channels -of csv=p=0", over),
            std::optional<std::string>("2\n"));
}

// Damage that H.264's error resilience conceals is said at FFmpeg's info
// level ("concealing ... errors in P frame"), and with frame threads no
// frame's flags tell it: it is counted as the errors are, exit status 1.
// The witness is the ffmpeg command line on one thread, which says
// "concealing" or "corrupt decoded frame" of each damaged variant.
TEST_F(Video, ConcealedDamageIsAnError) {
  const fs::path clip = dir_ / "clean.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=25 -t 2 -c:v libx264 -g 10 "
                   "-pix_fmt yuv420p '" +
                   clip.string() + "'"));
  const std::string clean = test::file_text(clip);
  int concealed = 0;
  // (Seed 34 damages a frame whose damage is only concealed, none logged.)
  for (const unsigned seed : {1U, 2U, 3U, 34U}) {
    std::mt19937 random(seed);
    std::string bytes = clean;
    const std::size_t at = bytes.size() * 45 / 100;
    for (std::size_t i = at; i < at + 300; ++i) bytes[i] = static_cast<char>(random());
    const fs::path damaged = dir_ / ("damaged" + std::to_string(seed) + ".mkv");
    std::ofstream(damaged, std::ios::binary) << bytes;
    const std::string command =
        "ffmpeg -nostdin -v info -threads 1 -i '" + damaged.string() + "' -f null - 2>&1";
    const std::string said = test::command_output(command);
    if (said.find("concealing") == std::string::npos &&
        said.find("corrupt decoded frame") == std::string::npos) {
      continue;
    }
    ++concealed;
    const auto r = test::run_cli({"video", damaged.string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 1) << seed << ": " << r.err;
    EXPECT_NE(r.err.find("in the stream"), std::string::npos) << seed << ": " << r.err;
    // On one decoding thread, the concealed frames are ffmpeg's on one thread,
    // run after run (with frame threads they depend on the threads' timing).
    const auto one = test::run_cli(
        {"video", damaged.string(), "--device", "cpu", "--decode-threads", "1", "--no-progress"});
    EXPECT_EQ(one.status, 1) << seed << ": " << one.err;
    const fs::path raw = dir_ / ("damaged" + std::to_string(seed) + ".rgb");
    ASSERT_TRUE(test::ffmpeg("-threads 1 -i '" + damaged.string() +
                             "' -f rawvideo -pix_fmt rgb24 '" + raw.string() + "'"));
    const std::string rgb = test::file_text(raw);
    constexpr std::size_t kFrameBytes = 320 * 240 * 3;
    std::istringstream rows(one.out);
    std::size_t frames = 0;
    for (std::string row; std::getline(rows, row); ++frames) {
      ASSERT_LE((frames + 1) * kFrameBytes, rgb.size()) << seed;
      const json histograms = json::parse(row)["histograms"];
      std::array<std::vector<std::uint64_t>, 3> want;
      for (auto& channel : want) channel.assign(256, 0);
      for (std::size_t i = 0; i < kFrameBytes; ++i) {
        ++want[i % 3][static_cast<unsigned char>(rgb[frames * kFrameBytes + i])];
      }
      EXPECT_EQ(histograms["red"].get<std::vector<std::uint64_t>>(), want[0])
          << seed << " " << frames;
      EXPECT_EQ(histograms["green"].get<std::vector<std::uint64_t>>(), want[1]) << seed;
      EXPECT_EQ(histograms["blue"].get<std::vector<std::uint64_t>>(), want[2]) << seed;
    }
    EXPECT_EQ(frames * kFrameBytes, rgb.size()) << seed;
    const auto again = test::run_cli(
        {"video", damaged.string(), "--device", "cpu", "--decode-threads", "1", "--no-progress"});
    EXPECT_EQ(again.out, one.out) << seed;
    // The same errors said (the line after tells the run's speed).
    EXPECT_EQ(again.err.substr(0, again.err.find('\n')), one.err.substr(0, one.err.find('\n')))
        << seed;
  }
  EXPECT_GT(concealed, 0);
  EXPECT_EQ(test::run_cli({"video", clip.string(), "--device", "cpu"}).status, 0);
}

// Damaged packets are said as they are met, the first ten of them, then
// that there are more: the last line counts them all (a badly damaged file
// does not flood the terminal).
TEST_F(Video, ManyDamagedPacketsAreSaidOnce) {
  const fs::path clip = dir_ / "clean.mp4";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=160x120:rate=25 -t 4 -c:v libx264 -g 5 '" +
                           clip.string() + "'"));
  std::string bytes = test::file_text(clip);
  const std::size_t n = bytes.size();
  for (std::size_t k = 0; k < 80; ++k) {
    const std::size_t at = n / 20 + k * (n * 9 / 10 / 80);
    for (std::size_t i = at; i < at + 300 && i < n; ++i) bytes[i] = '\x5A';
  }
  const fs::path damaged = dir_ / "damaged.mp4";
  std::ofstream(damaged, std::ios::binary) << bytes;
  const auto r = test::run_cli(
      {"video", damaged.string(), "--device", "cpu", "--no-progress", "--decode-threads", "1"});
  EXPECT_EQ(r.status, 1);
  std::istringstream lines(r.err);
  int skipped = 0, more = 0;
  for (std::string line; std::getline(lines, line);) {
    skipped += line.find(": damaged packet skipped: ") != std::string::npos ? 1 : 0;
    more += line == "gpuhist: error: " + damaged.string() +
                        ": more damage met than said here: the last line counts it"
                ? 1
                : 0;
  }
  EXPECT_EQ(skipped, 10) << r.err;
  EXPECT_EQ(more, 1) << r.err;
  EXPECT_NE(r.err.find(" errors in the stream (the file may be truncated or damaged)"),
            std::string::npos)
      << r.err;
}

// A video written to a pipe: Matroska streams; MP4, whose index points back
// into the file, is refused as such before the pipe is written.
TEST_F(Video, AVideoWrittenToAPipeIsOneThatStreams) {
  const fs::path clip = dir_ / "clip.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 3 -c:v ffv1 '" +
                           clip.string() + "'"));
  for (const char* name : {"pipe.mkv", "pipe.mp4"}) {
    const fs::path fifo = dir_ / name;
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string piped;
    std::thread reader([&] {
      std::ifstream in(fifo, std::ios::binary);
      piped.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    const auto r = test::run_cli(
        {"video", clip.string(), "--overlay", "-o", fifo.string(), "--device", "cpu"});
    // A reader still waiting for a writer (none opened the pipe) is let go.
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) ::close(fd);
    reader.join();
    if (std::string(name) == "pipe.mkv") {
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(piped.substr(0, 4), std::string("\x1A\x45\xDF\xA3", 4));
    } else {
      EXPECT_EQ(r.status, 2);
      test::expect_one_line_error(r,
                                  "pipe.mp4: an MP4 or MOV file is written to a file, not a "
                                  "pipe (write .mkv or .ts to a pipe)");
    }
  }
  // A pipe no program reads yet: refused before it is opened (the opening
  // would wait for a reader). A watchdog reads it after 30 s if it waits.
  const fs::path unread = dir_ / "unread.mp4";
  ASSERT_EQ(::mkfifo(unread.c_str(), 0600), 0);
  std::atomic<bool> done{false}, released{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 300 && !done; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!done) {
      released = true;
      std::ifstream in(unread, std::ios::binary);
      const std::string ignored((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    }
  });
  const auto r = test::run_cli(
      {"video", clip.string(), "--overlay", "-o", unread.string(), "--device", "cpu"});
  done = true;
  watchdog.join();
  EXPECT_FALSE(released) << "the command waited for a reader";
  EXPECT_EQ(r.status, 2);
  test::expect_one_line_error(r, "unread.mp4: an MP4 or MOV file is written to a file, not a pipe");
}

// An MP4 whose index leads to no data: no frame is decoded, and no video of
// no frames is left behind (its file is not made), whatever the container.
TEST_F(Video, NoFrameDecodedLeavesNoVideoBehind) {
  const fs::path whole = dir_ / "whole.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 10 -pix_fmt yuv420p "
                   "-movflags +faststart '" +
                   whole.string() + "'"));
  const std::string bytes = test::file_text(whole);
  const std::size_t mdat = bytes.find("mdat");
  ASSERT_NE(mdat, std::string::npos);
  const fs::path cut = dir_ / "index-only.mp4";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, mdat + 12);
  for (const char* ext : {".mp4", ".mkv"}) {
    const fs::path out = dir_ / (std::string("nothing") + ext);
    const auto r =
        test::run_cli({"video", cut.string(), "--overlay", "-o", out.string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("index-only.mp4: no frame could be decoded (" + out.string() +
                         " is not written)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out)) << ext;
  }
  // Nor rows of no frames: the target is left as it was (a stream whose
  // packets were all dropped reads no frame, with no error of its own).
  const fs::path dropped = dir_ / "dropped.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 0.5 "
                   "-c:v libx264 -c:a aac -bsf:v noise=drop=1 '" +
                   dropped.string() + "'"));
  const fs::path rows = dir_ / "rows.jsonl";
  std::ofstream(rows) << "kept\n";
  for (const fs::path& input : {cut, dropped}) {
    const auto r = test::run_cli({"video", input.string(), "-o", rows.string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find(input.filename().string() + ": no frame could be decoded (" +
                         rows.string() + " is not written)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(test::file_text(rows), "kept\n");
  }
}

TEST_F(Video, BenchReportsFramesPerSecond) {
  const auto r =
      test::run_cli({"bench", "--video", "--sizes", "64x48,32x16", "--video-frames", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ffmpeg -vf histogram fps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("clahe fps"), std::string::npos) << r.out;
  // Each size's row: decode, histograms, overlay, ffmpeg's histogram, then the
  // equalised and CLAHE videos and ffmpeg's histeq, every rate above zero.
  for (const char* size : {"64x48", "32x16"}) {
    const auto at = r.out.find(std::string("\n") + size + " ");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::istringstream row(r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1));
    std::string name;
    row >> name;
    std::vector<double> rates;
    for (double v = 0; row >> v;) rates.push_back(v);
    ASSERT_EQ(rates.size(), 7U) << r.out;
    for (double v : rates) EXPECT_GT(v, 0.0) << r.out;
  }
  const auto bad = test::run_cli({"bench", "--video", "--sizes", "big"});
  EXPECT_EQ(bad.status, 2) << bad.err;
  // What --video does not take is a usage error, not ignored; no clip is made.
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"bench", "--video", "--format", "json"},
                                             {"bench", "--video", "--quick"},
                                             {"bench", "--video", "--video-frames", "0"},
                                             {"bench", "--video-frames", "5"},
                                             {"bench", "--repetitions", "0"}}) {
    const auto refused = test::run_cli(args);
    EXPECT_EQ(refused.status, 2) << args[2] << ": " << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_TRUE(refused.out.empty()) << refused.out;
  }
}

// A limit of exactly a frame's pixels takes the frame, on decoders that count
// a frame's width rounded up to their stride alignment too (MPEG-2 at 720x480
// counts as 768 columns there; FFV1 at 1278x718 as 1280): no frame is taken
// for damage. One pixel less refuses the first frame, in one line.
TEST_F(Video, AFrameAtTheLimitIsTakenOnEveryDecoder) {
  const std::pair<std::string, std::string> clips[] = {
      {"720x480", "-c:v mpeg2video -q:v 4 '" + (dir_ / "mpeg2.ts").string() + "'"},
      {"1278x718", "-pix_fmt yuv420p -c:v ffv1 '" + (dir_ / "odd.mkv").string() + "'"},
  };
  const fs::path files[] = {dir_ / "mpeg2.ts", dir_ / "odd.mkv"};
  const std::uint64_t pixels[] = {720 * 480, 1278 * 718};
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=" + clips[i].first +
                             ":rate=25 -frames:v 3 " + clips[i].second));
    const auto at = test::run_cli(
        {"video", files[i].string(), "--max-pixels", std::to_string(pixels[i]), "--format", "csv"});
    EXPECT_EQ(at.status, 0) << at.err;
    EXPECT_EQ(std::count(at.out.begin(), at.out.end(), '\n'), 4) << at.err;  // a header, 3 rows
    const auto over =
        test::run_cli({"video", files[i].string(), "--max-pixels", std::to_string(pixels[i] - 1)});
    EXPECT_EQ(over.status, 1);
    EXPECT_NE(over.err.find("exceed the limit of " + std::to_string(pixels[i] - 1)),
              std::string::npos)
        << over.err;
    EXPECT_EQ(over.err.find("damaged"), std::string::npos) << over.err;
  }
}

TEST_F(Video, BadInputsHaveOneLineAndTheirStatus) {
  std::ofstream(dir_ / "text.mp4") << "not a video";
  std::ofstream(dir_ / "text.jpg") << "hello";  // probed as a stream of JPEG pictures
  std::ofstream(dir_ / "empty.mp4").flush();
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i sine=frequency=440:duration=0.2 '" +
                           (dir_ / "tone.wav").string() + "'"));
  // Audio with cover art: a picture stream, but no video.
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i sine=frequency=440:duration=0.2 -i '" +
                   (fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png").string() +
                   "' -map 0 -map 1 -c:a libmp3lame -c:v mjpeg -disposition:v attached_pic '" +
                   (dir_ / "cover.mp3").string() + "'"));
  const fs::path clip = dir_ / "clip.mp4";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 10 -c:v libx264 '" +
                           clip.string() + "'"));
  {
    std::ifstream in(clip, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir_ / "half.mp4", std::ios::binary) << data.substr(0, data.size() / 2);
  }
  fs::create_symlink("loop.mp4", dir_ / "loop.mp4");
  const fs::path pcm = dir_ / "pcm.mov";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 1 "
                   "-c:v libx264 -c:a pcm_s16le '" +
                   pcm.string() + "'"));
  fs::create_directories(dir_ / "my video (1)");
  const fs::path deep = dir_ / "deep.png";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=8x8 -frames:v 1 -pix_fmt rgb48be '" +
                           deep.string() + "'"));
  const fs::path wide = dir_ / "wide.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i color=size=20000x16:rate=5 -frames:v 1 -c:v ffv1 '" +
                           wide.string() + "'"));
  const std::pair<std::vector<std::string>, std::pair<int, std::string>> cases[] = {
      // Options of what a run does not do, and a video's name for rows.
      {{"video", clip.string(), "-o", (dir_ / "rows.mp4").string()},
       {2, "rows.mp4: a video's name, and rows (jsonl or csv) are written without --overlay"}},
      {{"video", clip.string(), "--tiles", "4x4"}, {2, "--tiles sets how --adjust adjusts"}},
      {{"video", clip.string(), "--apply", "cpu"}, {2, "--apply sets how --adjust adjusts"}},
      {{"video", clip.string(), "--renderer", "cpu"}, {2, "it goes with --overlay"}},
      {{"video", clip.string(), "--overlay", "--format", "csv", "-o", (dir_ / "o.mp4").string()},
       {2, "--format sets how rows are written"}},
      // The frames' depth bounds a threshold and sets the reference's, as for images.
      {{"video", clip.string(), "--adjust", "threshold", "--method", "256", "-o",
        (dir_ / "t.mp4").string()},
       {2, "--method 256 is above 255, the largest 8-bit sample value of its frames"}},
      {{"video", clip.string(), "--adjust", "match", "--reference", deep.string(), "-o",
        (dir_ / "t.mp4").string()},
       {2, "match needs a reference of the frames' bit depth"}},
      {{"video", (dir_ / "missing.mp4").string()}, {1, "no such file"}},
      {{"video", (dir_ / "loop.mp4").string()}, {1, "loop.mp4: too many levels of symbolic links"}},
      {{"video", (dir_ / "text.mp4").string()}, {1, "text.mp4"}},
      {{"video", (dir_ / "text.jpg").string()},
       {1, "text.jpg: not a video, or a damaged one: its mjpeg stream has no picture size"}},
      {{"video", (dir_ / "tone.wav").string()}, {1, "no video stream"}},
      {{"video", (dir_ / "cover.mp3").string()},
       {1, "no video stream (its one picture is cover art attached to its audio)"}},
      {{"video", (dir_ / "half.mp4").string()}, {1, "half.mp4"}},
      {{"video", clip.string(), "--format", "xml"}, {2, "xml"}},
      {{"video", clip.string(), "--bins", "0"}, {2, "--bins"}},
      {{"video", (dir_ / "empty.mp4").string()}, {1, "empty.mp4: empty file"}},
      {{"video", clip.string(), "--max-pixels", "100"},
       {1, "exceed the limit of 100 (--max-pixels)"}},
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.gif").string()},
       {2, "the '.gif' container does not hold h264 video"}},
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.dv").string()},
       {2, "the '.dv' container does not hold h264 video"}},
      // With audio the container may refuse too, named after the video; the path intact.
      {{"video", pcm.string(), "--overlay", "-o", (dir_ / "my video (1)" / "x.dv").string()},
       {2, (dir_ / "my video (1)" / "x.dv").string() +
               ": the '.dv' container does not hold h264 video with pcm_s16le audio"}},
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.webm").string()},
       {2, "use the vp9 or av1 codec"}},
      // MOV says it holds VP9 and AV1, and writes them in its MP4 form alone (SVT-AV1, given
      // up on after it was opened, waited for ever); an AVI no HEVC, and the hint is another.
      {{"video", clip.string(), "--overlay", "--codec", "av1", "-o", (dir_ / "x.mov").string()},
       {2, "the '.mov' container does not hold av1 video (use .mp4, .mkv, .avi or .webm)"}},
      {{"video", clip.string(), "--overlay", "--codec", "vp9", "-o", (dir_ / "x.mov").string()},
       {2, "the '.mov' container does not hold vp9 video"}},
      {{"video", clip.string(), "--overlay", "--codec", "hevc", "-o", (dir_ / "x.avi").string()},
       {2, "the '.avi' container does not hold hevc video (use .mp4, .mkv or .mov)"}},
      // MPEG-TS and MPEG-PS do not say, and would write VP9 and AV1 as streams no player
      // reads; FLV says it holds MPEG-4 Part 2 video, then refuses it.
      {{"video", clip.string(), "--overlay", "--codec", "vp9", "-o", (dir_ / "x.ts").string()},
       {2, "the '.ts' container does not hold vp9 video (use .mp4, .mkv, .avi or .webm)"}},
      {{"video", clip.string(), "--overlay", "--codec", "vp9", "-o", (dir_ / "x.mpg").string()},
       {2, "the '.mpg' container does not hold vp9 video"}},
      {{"video", clip.string(), "--overlay", "--codec", "mpeg4", "-o", (dir_ / "x.flv").string()},
       {2, "the '.flv' container does not hold mpeg4 video (use .mp4, .mkv, .mov or .avi)"}},
      // MXF refuses a rate (10 a second) as it refuses a codec: which is said.
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.mxf").string()},
       {2,
        "the '.mxf' container holds video at broadcast and cinema frame rates alone (such as "
        "23.976, 25, 29.97, 50 and 59.94), and this is 10 frames a second"}},
      // MPEG-4 Part 2 it refuses at 10 frames a second and at 25: the codec is said.
      {{"video", clip.string(), "--overlay", "--codec", "mpeg4", "-o", (dir_ / "x.mxf").string()},
       {2, "the '.mxf' container does not hold mpeg4 video"}},
      // An option given as "" is refused, not taken as one not given.
      {{"video", clip.string(), "--overlay", "--codec", "", "-o", (dir_ / "x.mp4").string()},
       {2, "--codec: an empty value"}},
      {{"video", clip.string(), "-o", ""}, {2, "--output: an empty file name"}},
      {{"video", clip.string(), "--compare", ""}, {2, "--compare: an empty file name"}},
      {{"video", ""}, {2, "input: an empty file name"}},
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.mp4").string(), "--size", "63x48"},
       {2, "even sizes"}},
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "x.mp4").string(), "--size",
        "16384x16384", "--device", "cpu"},
       {2, "does not take 16384x16384 frames"}},
      {{"video", clip.string(), "--overlay", "-o", "-"}, {2, "not to standard output"}},
      // Frames larger than any written video, given no --size.
      {{"video", wide.string(), "--overlay", "-o", (dir_ / "x.mp4").string(), "--device", "cpu"},
       {2,
        "wide.mkv: its frames are 20000x16, and a video is written at 16384x16384 at most "
        "(give --size)"}},
      // A missing folder for the output is said first, and outranks the missing input.
      {{"video", (dir_ / "missing.mp4").string(), "-o", (dir_ / "nowhere" / "x.jsonl").string()},
       {4, "x.jsonl: cannot write: No such file or directory"}},
      // x265 would take 48 pixels and write out of its buffers; 8 rows it refuses itself.
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "narrow.mkv").string(), "--codec",
        "hevc", "--size", "48x32", "--device", "cpu"},
       {2,
        "narrow.mkv: the libx265 encoder does not take 48x32 frames (HEVC frames need to be at "
        "least 50x16 here)"}},
      // x265 refuses a frame it deems non-conformant as it opens.
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "flat.mkv").string(), "--codec", "hevc",
        "--size", "8192x16", "--device", "cpu"},
       {2, "flat.mkv: the libx265 encoder does not take 8192x16 frames"}},
      {{"video", clip.string(), "--adjust", "equalize", "-o", (dir_ / "narrow.mkv").string(),
        "--codec", "hevc", "--size", "64x8", "--device", "cpu"},
       {2, "does not take 64x8 frames (HEVC frames need to be at least 50x16 here)"}},
      // SVT-AV1 refuses frames under 64x64 as it opens, and says why on stderr itself:
      // the refusal is the one line.
      {{"video", clip.string(), "--overlay", "-o", (dir_ / "low.mkv").string(), "--codec", "av1",
        "--size", "64x48", "--device", "cpu"},
       {2, "low.mkv: the libsvtav1 encoder does not take 64x48 frames"}},
  };
  for (const auto& [args, expected] : cases) {
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.status, expected.first) << args[1] << ": " << r.err;
    EXPECT_EQ(r.err.rfind("gpuhist: error: ", 0), 0U) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(expected.second), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir_ / "narrow.mkv"));
  EXPECT_FALSE(fs::exists(dir_ / "low.mkv"));
}

}  // namespace
}  // namespace gpuhist
