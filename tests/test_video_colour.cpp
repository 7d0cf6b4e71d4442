// A video's colour description: frames converted to RGB with the matrix and
// range each stream declares, byte for byte as the ffmpeg command line
// converts them; videos written with their source's description, converted
// with its matrix, so that the ffmpeg command line reads back the colours
// written; the commands keeping it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuhist/video_file.hpp"
#include "gpuhist/video_writer.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {

void PrintTo(const VideoColour& c, std::ostream* os) {
  *os << "{" << c.matrix << ", " << c.primaries << ", " << c.transfer << ", " << c.range << "}";
}

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ffprobe's answer for the first video stream's `entries`, one line of CSV.
std::string probe(const fs::path& file, const std::string& entries) {
  const auto listing =
      test::ffprobe("-select_streams v:0 -show_entries stream=" + entries + " -of csv=p=0", file);
  return listing ? listing->substr(0, listing->find('\n')) : "ffprobe failed";
}

class VideoColourTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

struct Declared {
  std::string file;
  std::string encode;  // ffmpeg's options for the clip
  bool deep;           // decoded to RGB16
  VideoColour colour;  // what the stream declares
};

TEST_F(VideoColourTest, FramesAreConvertedWithTheMatrixAndRangeEachStreamDeclares) {
  const std::string x264 = "-c:v libx264 -preset ultrafast ";
  const std::vector<Declared> cases = {
      {"none.mp4", x264 + "-pix_fmt yuv420p", false, {}},
      {"bt709.mp4",
       x264 + "-pix_fmt yuv420p -colorspace bt709 -color_primaries bt709 -color_trc bt709",
       false,
       {"bt709", "bt709", "bt709", "limited"}},
      // H.264 and HEVC decoders hand full range over as yuvj420p; FFV1 declares it.
      {"bt709-full.mp4",
       x264 + "-pix_fmt yuv420p -colorspace bt709 -color_range pc",
       false,
       {"bt709", "unspecified", "unspecified", "full"}},
      {"bt709-full.mkv",
       "-c:v ffv1 -pix_fmt yuv420p -colorspace bt709 -color_range pc",
       false,
       {"bt709", "unspecified", "unspecified", "full"}},
      // JPEG's own matrix, whatever the container says.
      {"bt709-jpeg.mkv",
       "-c:v mjpeg -pix_fmt yuvj422p -colorspace bt709",
       false,
       {"bt470bg", "unspecified", "unspecified", "full"}},
      {"pq.mkv",
       x264 + "-pix_fmt yuv420p10le -colorspace bt2020nc -color_primaries bt2020 "
              "-color_trc smpte2084",
       true,
       {"bt2020nc", "bt2020", "smpte2084", "limited"}},
      // A phone's HDR clip: HEVC Main 10, HLG.
      {"hlg.mp4",
       "-c:v libx265 -x265-params log-level=error -preset ultrafast -pix_fmt yuv420p10le "
       "-colorspace bt2020nc -color_primaries bt2020 -color_trc arib-std-b67",
       true,
       {"bt2020nc", "bt2020", "arib-std-b67", "limited"}},
      {"smpte240m.mp4",
       x264 + "-pix_fmt yuv444p -colorspace smpte240m",
       false,
       {"smpte240m", "unspecified", "unspecified", "limited"}},
      {"fcc.mp4",
       x264 + "-pix_fmt yuv420p -colorspace fcc",
       false,
       {"fcc", "unspecified", "unspecified", "limited"}},
      // A matrix libswscale has no coefficients for: Rec. 601's, as ffmpeg.
      {"ycgco.mkv",
       "-c:v ffv1 -pix_fmt yuv420p -colorspace ycgco",
       false,
       {"ycgco", "unspecified", "unspecified", "unspecified"}},
      // RGB samples need no matrix, whether the stream says so (PNG) or not (QuickTime RLE).
      {"rgb-png.mkv",
       "-c:v png -pix_fmt rgb24",
       false,
       {"gbr", "unspecified", "unspecified", "full"}},
      {"rgb-rle.mov",
       "-c:v qtrle -pix_fmt rgb24",
       false,
       {"gbr", "unspecified", "unspecified", "unspecified"}},
  };
  constexpr std::uint32_t kWidth = 66, kHeight = 38;
  for (const Declared& c : cases) {
    const fs::path clip = dir_ / c.file;
    const fs::path raw = dir_ / (c.file + ".raw");
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=66x38:rate=10 -frames:v 2 " + c.encode +
                             " '" + clip.string() + "'"))
        << c.file;
    ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() + "' -f rawvideo -pix_fmt " +
                             (c.deep ? "rgb48le" : "rgb24") + " -sws_flags bicubic '" +
                             raw.string() + "'"))
        << c.file;
    const std::string expected = test::file_text(raw);
    const std::size_t frame_bytes = std::size_t{kWidth} * kHeight * 3 * (c.deep ? 2 : 1);
    ASSERT_EQ(expected.size(), 2 * frame_bytes) << c.file;

    VideoReader reader(clip);
    EXPECT_EQ(reader.colour(), c.colour) << c.file;
    VideoFrame frame;
    std::size_t index = 0;
    while (reader.next(frame)) {
      ASSERT_LT(index, 2U) << c.file;
      EXPECT_EQ(frame.colour, c.colour) << c.file << " frame " << index;
      const std::vector<std::byte> got = test::pixel_bytes_of(frame.image.view());
      EXPECT_TRUE(got.size() == frame_bytes &&
                  std::memcmp(got.data(), expected.data() + index * frame_bytes, frame_bytes) == 0)
          << c.file << " frame " << index;
      ++index;
    }
    EXPECT_EQ(index, 2U) << c.file;
  }
}

// Eight bars of saturated and grey colours, `width` / 8 pixels wide each.
Picture bars(std::uint32_t width, std::uint32_t height) {
  static constexpr std::uint8_t kBars[8][3] = {{255, 0, 0},     {0, 255, 0},   {0, 0, 255},
                                               {255, 255, 0},   {0, 255, 255}, {255, 0, 255},
                                               {235, 235, 235}, {60, 90, 200}};
  Picture p{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)};
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::uint8_t* bar = kBars[x * 8 / width];
      std::uint8_t* px = &p.rgba[(std::size_t{y} * width + x) * 4];
      px[0] = bar[0];
      px[1] = bar[1];
      px[2] = bar[2];
      px[3] = 255;
    }
  }
  return p;
}

struct Written {
  VideoColour given;
  std::string probed;  // ffprobe's color_range,color_space,color_transfer,color_primaries
};

TEST_F(VideoColourTest, WrittenVideosKeepTheirSourcesColourAndReadBackAsWritten) {
  // Written in limited range whatever range the source had, and declared so, a
  // source that declares none too (a player then has no range to guess).
  const std::vector<Written> cases = {
      {{}, "tv,unknown,unknown,unknown"},
      {{"bt709", "bt709", "bt709", "limited"}, "tv,bt709,bt709,bt709"},
      {{"bt709", "unspecified", "unspecified", "full"}, "tv,bt709,unknown,unknown"},
      {{"bt2020nc", "bt2020", "arib-std-b67", "limited"}, "tv,bt2020nc,arib-std-b67,bt2020"},
      {{"smpte170m", "smpte170m", "smpte170m", "limited"}, "tv,smpte170m,smpte170m,smpte170m"},
      // Converted with Rec. 601's matrix, so declared as none.
      {{"ycgco", "unspecified", "unspecified", "unspecified"}, "tv,unknown,unknown,unknown"},
      // Reserved values and names FFmpeg does not know exactly: declared as none.
      {{"reserved", "bt709x", "reserved", "limited"}, "tv,unknown,unknown,unknown"},
      // RGB sources: Rec. 709, declared (players read undeclared HD video as Rec. 709).
      {{"gbr", "unspecified", "unspecified", "full"}, "tv,bt709,unknown,unknown"},
      {{"gbr", "unspecified", "unspecified", "unspecified"}, "tv,bt709,unknown,unknown"},
  };
  constexpr std::uint32_t kWidth = 128, kHeight = 32;
  const Picture picture = bars(kWidth, kHeight);
  for (const std::string codec : {"h264", "vp9"}) {
    for (const Written& c : cases) {
      const std::string label = codec + " " + c.given.matrix + " " + c.given.range;
      const fs::path out = dir_ / (codec + "-" + c.given.matrix + "-" + c.given.range + ".mkv");
      VideoEncoding encoding;
      encoding.codec = codec;
      encoding.crf = codec == "h264" ? 0 : 4;
      encoding.colour = c.given;
      {
        VideoWriter writer(out, kWidth, kHeight, 10.0, {}, encoding);
        for (int i = 0; i < 3; ++i) writer.write(picture);
        writer.finish();
      }
      EXPECT_EQ(probe(out, "color_range,color_space,color_transfer,color_primaries"), c.probed)
          << label;
      // The ffmpeg command line reads each bar's middle back within the
      // rounding of two conversions, one through limited range.
      const fs::path raw = dir_ / "back.rgb";
      ASSERT_TRUE(test::ffmpeg("-i '" + out.string() +
                               "' -frames:v 1 -f rawvideo -pix_fmt rgb24 '" + raw.string() + "'"))
          << label;
      const std::string back = test::file_text(raw);
      ASSERT_EQ(back.size(), std::size_t{kWidth} * kHeight * 3) << label;
      for (std::uint32_t bar = 0; bar < 8; ++bar) {
        const std::uint32_t x = bar * (kWidth / 8) + kWidth / 16, y = kHeight / 2;
        for (int ch = 0; ch < 3; ++ch) {
          const int want = picture.rgba[(std::size_t{y} * kWidth + x) * 4 + ch];
          const int got = static_cast<unsigned char>(back[(std::size_t{y} * kWidth + x) * 3 + ch]);
          EXPECT_NEAR(got, want, 4) << label << " bar " << bar << " channel " << ch;
        }
      }
    }
  }
}

TEST_F(VideoColourTest, CommandsKeepAndReportTheSourcesColour) {
  const fs::path clip = dir_ / "bt709.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 3 -c:v libx264 -pix_fmt yuv420p "
      "-colorspace bt709 -color_primaries bt709 -color_trc bt709 '" +
      clip.string() + "'"));
  for (const std::string mode : {"--overlay", "--adjust"}) {
    const fs::path out = dir_ / ("out" + mode + ".mp4");
    std::vector<std::string> args = {"video", clip.string(), mode};
    if (mode == "--adjust") args.push_back("equalize");
    args.insert(args.end(), {"-o", out.string(), "--no-progress"});
    const auto r = test::run_cli(args);
    ASSERT_EQ(r.status, 0) << mode << ": " << r.err;
    EXPECT_EQ(probe(out, "color_range,color_space,color_transfer,color_primaries"),
              "tv,bt709,bt709,bt709")
        << mode;
  }
  // MPEG-4 Part 2 video declares its colour in MP4 and Matroska files; in an
  // AVI file nothing can, which a warning says (but of Rec. 601's matrix, which
  // ffmpeg takes for a stream that declares none).
  for (const char* name : {"mpeg4.mkv", "mpeg4.avi"}) {
    const fs::path out = dir_ / name;
    const auto r = test::run_cli({"video", clip.string(), "--overlay", "--codec", "mpeg4", "-o",
                                  out.string(), "--no-progress", "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    const bool avi = out.extension() == ".avi";
    EXPECT_EQ(probe(out, "color_space"), avi ? "unknown" : "bt709") << name;
    EXPECT_EQ(r.err.find(out.string() +
                         ": no colour description written: MPEG-4 Part 2 video carries none, "
                         "nor does a '.avi' file") != std::string::npos,
              avi)
        << r.err;
  }
  const fs::path sd = dir_ / "bt601.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 3 -c:v libx264 -pix_fmt yuv420p "
      "-colorspace smpte170m -color_primaries smpte170m -color_trc smpte170m '" +
      sd.string() + "'"));
  const auto sd_avi =
      test::run_cli({"video", sd.string(), "--overlay", "--codec", "mpeg4", "-o",
                     (dir_ / "sd.avi").string(), "--no-progress", "--device", "cpu"});
  ASSERT_EQ(sd_avi.status, 0) << sd_avi.err;
  EXPECT_EQ(sd_avi.err.find("warning"), std::string::npos) << sd_avi.err;
  // A video of RGB frames is written with Rec. 709's matrix and says so.
  const fs::path rgb = dir_ / "rgb.mov";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 3 -c:v qtrle "
                   "-pix_fmt rgb24 '" +
                   rgb.string() + "'"));
  const fs::path from_rgb = dir_ / "from-rgb.mp4";
  const auto written =
      test::run_cli({"video", rgb.string(), "--overlay", "-o", from_rgb.string(), "--no-progress"});
  ASSERT_EQ(written.status, 0) << written.err;
  EXPECT_EQ(probe(from_rgb, "color_range,color_space,color_transfer,color_primaries"),
            "tv,bt709,unknown,unknown");
  // In a QuickTime file too, where MPEG-4 Part 2 video, which carries no colour
  // of its own, has the file's colour box alone to declare its matrix.
  const fs::path rgb_mov = dir_ / "from-rgb.mov";
  const auto into_mov = test::run_cli({"video", rgb.string(), "--overlay", "--codec", "mpeg4", "-o",
                                       rgb_mov.string(), "--no-progress", "--device", "cpu"});
  ASSERT_EQ(into_mov.status, 0) << into_mov.err;
  EXPECT_EQ(probe(rgb_mov, "color_space"), "bt709");
  EXPECT_EQ(into_mov.err.find("warning"), std::string::npos) << into_mov.err;
  // A source that declares nothing (here full range, by its JPEG pixel
  // format alone): its MP4 outputs declare their limited range too, as
  // Matroska ones do (QuickTime's colour box has no room for a range).
  const fs::path bare = dir_ / "bare.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 3 -c:v libx264 "
                   "-pix_fmt yuvj420p '" +
                   bare.string() + "'"));
  for (const char* name : {"from-bare.mp4", "from-bare.mkv"}) {
    const fs::path out = dir_ / name;
    const auto r =
        test::run_cli({"video", bare.string(), "--overlay", "-o", out.string(), "--no-progress"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(probe(out, "color_range"), "tv") << name;
  }
  const auto rows = test::run_cli({"video", clip.string(), "--space", "ycbcr"});
  ASSERT_EQ(rows.status, 0) << rows.err;
  std::istringstream lines(rows.out);
  std::string line;
  int frames = 0;
  while (std::getline(lines, line)) {
    const json row = json::parse(line);
    EXPECT_EQ(row["matrix"], "bt709");
    EXPECT_EQ(row["range"], "limited");
    ++frames;
  }
  EXPECT_EQ(frames, 3);
}

}  // namespace
}  // namespace gpuhist
