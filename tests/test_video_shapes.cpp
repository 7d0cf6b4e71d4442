// Decoding video of every shape: every width from 16 to 143 and the common
// and odd frame sizes (portrait phone clips, 1366x768, odd widths and
// heights, 2x2), in every pixel format a decoder commonly delivers, through
// the decode path that `video`, `video --overlay` and the viewer share, and
// through the `video` and `video --overlay` commands. Each frame is checked
// against the ffmpeg command line's own RGB decode of the same file.
//
// The converter's vector code writes past a row's end; ctest runs this
// program under glibc's malloc checks, which catch what such a write
// corrupts (AddressSanitizer does not see into FFmpeg's assembly). Every
// width from 16 to 143 meets each remainder modulo 128 once, and so every
// alignment of a row of 1, 3 or 6 bytes a pixel; GPUHIST_WIDEST_SWEPT (up to
// 300) sweeps further (test_video_shapes_widths, labelled long).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/video_file.hpp"
#include "gpuhist/video_writer.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A pixel format as a decoder delivers it, and what stores it losslessly.
struct Source {
  const char* pix_fmt;
  bool deep;  // decoded to 16-bit RGB
};

constexpr Source kSources[] = {
    {"yuv420p", false}, {"yuvj420p", false},   {"nv12", false}, {"yuv422p", false},
    {"yuv444p", false}, {"yuv420p10le", true}, {"gray", false}, {"rgb24", false},
};

struct Shape {
  std::uint32_t width;
  std::uint32_t height;
};

// Common frame sizes, portrait phone clips, and odd ones.
const std::vector<Shape> kCommonShapes = {
    {1080, 1920}, {720, 1280}, {1366, 768}, {426, 240}, {1000, 562}, {362, 204}, {718, 404},
    {232, 130},   {360, 240},  {17, 13},    {2, 2},     {1, 1},      {3, 5},     {1001, 563},
};

struct Clip {
  Source source;
  Shape shape;
  fs::path file;
  fs::path raw;  // the ffmpeg command line's RGB decode
};

// The encoder and container that keep `source` as it is: H.264 where it takes
// the shape (the commonest stream there is), MJPEG for full-range 4:2:0,
// otherwise FFV1 or raw frames.
std::string encoder(const Source& source, const Shape& shape, std::string& extension) {
  const std::string fmt = source.pix_fmt;
  const bool even = shape.width % 2 == 0 && shape.height % 2 == 0;
  if (fmt == "yuvj420p") {
    extension = ".avi";
    return "-c:v mjpeg -q:v 4";
  }
  if (fmt == "nv12" || fmt == "rgb24") {
    extension = ".nut";
    return "-c:v rawvideo";
  }
  if (even && (fmt == "yuv420p" || fmt == "yuv422p" || fmt == "yuv444p")) {
    extension = ".mp4";
    return "-c:v libx264 -preset ultrafast -threads 1";
  }
  extension = ".mkv";
  return "-c:v ffv1 -threads 1";
}

// Writes a clip of two frames per source and shape into `dir`, and the ffmpeg
// command line's decode of each to raw RGB: one ffmpeg process a few dozen clips.
std::vector<Clip> make_clips(const fs::path& dir, const std::vector<Shape>& shapes, int frames) {
  std::vector<Clip> clips;
  for (const Source& source : kSources) {
    for (const Shape& shape : shapes) {
      std::string extension;
      (void)encoder(source, shape, extension);
      const std::string name = std::string(source.pix_fmt) + "-" + std::to_string(shape.width) +
                               "x" + std::to_string(shape.height);
      clips.push_back({source, shape, dir / (name + extension), dir / (name + ".raw")});
    }
  }
  constexpr std::size_t kBatch = 96;
  for (std::size_t first = 0; first < clips.size(); first += kBatch) {
    const std::size_t end = std::min(clips.size(), first + kBatch);
    std::string inputs, outputs, decode_inputs, decode_outputs;
    for (std::size_t i = first; i < end; ++i) {
      const Clip& c = clips[i];
      const std::string index = std::to_string(i - first);
      // testsrc2 draws at even sizes; an odd one is cropped from the next even size in RGB.
      // Each source ends after its frames: an ffmpeg of many endless inputs can spin
      // without end once some of its outputs have all their frames.
      inputs += " -f lavfi -i testsrc2=size=" + std::to_string(c.shape.width + c.shape.width % 2) +
                "x" + std::to_string(c.shape.height + c.shape.height % 2) +
                ":rate=10:duration=" + std::to_string(frames / 10) + "." +
                std::to_string(frames % 10) +
                ",format=rgb24,crop=" + std::to_string(c.shape.width) + ":" +
                std::to_string(c.shape.height) + ":0:0";
      std::string extension;
      outputs += " -map " + index + ":v -frames:v " + std::to_string(frames) + " -pix_fmt " +
                 c.source.pix_fmt + " " + encoder(c.source, c.shape, extension) + " '" +
                 c.file.string() + "'";
      decode_inputs += " -threads 1 -i '" + c.file.string() + "'";  // no thread pool per clip
      decode_outputs += " -map " + index + ":v -f rawvideo -pix_fmt " +
                        (c.source.deep ? "rgb48le" : "rgb24") + " -sws_flags bicubic '" +
                        c.raw.string() + "'";
    }
    EXPECT_TRUE(test::ffmpeg(inputs + outputs)) << "making clips from " << clips[first].file;
    EXPECT_TRUE(test::ffmpeg(decode_inputs + decode_outputs))
        << "decoding clips from " << clips[first].file;
  }
  return clips;
}

class VideoShapes : public ::testing::Test {
 protected:
  static constexpr int kFrames = 2;

  // The widest width of the sweep: 143, or GPUHIST_WIDEST_SWEPT (16 to 300).
  static std::uint32_t widest_swept() {
    const char* set = std::getenv("GPUHIST_WIDEST_SWEPT");
    const unsigned long widest = set != nullptr ? std::strtoul(set, nullptr, 10) : 143;
    return widest >= 16 && widest <= 300 ? static_cast<std::uint32_t>(widest) : 143;
  }

  // The clips are made once for every test of the program.
  static void SetUpTestSuite() {
    dir_ = new fs::path(test::temp_dir());
    std::vector<Shape> widths;
    for (std::uint32_t w = 16; w <= widest_swept(); ++w) widths.push_back({w, 6 + w % 5});
    every_width_ = new std::vector<Clip>(make_clips(*dir_, widths, kFrames));
    common_ = new std::vector<Clip>(make_clips(*dir_, kCommonShapes, kFrames));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete every_width_;
    delete common_;
    delete dir_;
  }

  // What the commands are run on: every common shape in the commonest format,
  // and a portrait, an odd and a 4:2:2-breaking shape in every other.
  static std::vector<Clip> command_clips() {
    std::vector<Clip> out;
    for (const Clip& c : *common_) {
      const bool shape = (c.shape.width == 1080 && c.shape.height == 1920) ||
                         (c.shape.width == 17 && c.shape.height == 13) ||
                         (c.shape.width == 362 && c.shape.height == 204);
      if (std::string(c.source.pix_fmt) == "yuv420p" || shape) out.push_back(c);
    }
    return out;
  }

  // The frames of the reference decode.
  static std::vector<std::vector<std::byte>> reference_frames(const Clip& clip) {
    const std::size_t bytes =
        std::size_t{clip.shape.width} * clip.shape.height * 3 * (clip.source.deep ? 2 : 1);
    std::ifstream in(clip.raw, std::ios::binary);
    std::vector<std::vector<std::byte>> frames;
    std::vector<std::byte> frame(bytes);
    while (in.read(reinterpret_cast<char*>(frame.data()), static_cast<std::streamsize>(bytes))) {
      frames.push_back(frame);
    }
    return frames;
  }

  static PixelFormat rgb(const Clip& clip) {
    return {ChannelLayout::RGB, clip.source.deep ? SampleType::U16 : SampleType::U8};
  }

  static std::string label(const Clip& clip) {
    return std::string(clip.source.pix_fmt) + " " + std::to_string(clip.shape.width) + "x" +
           std::to_string(clip.shape.height);
  }

  // The frames VideoReader delivers equal the reference decode, byte for byte.
  static void expect_decoded_as_ffmpeg(const Clip& clip) {
    const auto expected = reference_frames(clip);
    ASSERT_EQ(expected.size(), std::size_t{kFrames}) << label(clip);
    VideoReader reader(clip.file);
    VideoFrame frame;
    std::size_t index = 0;
    while (reader.next(frame)) {
      ASSERT_LT(index, expected.size()) << label(clip);
      ASSERT_EQ(frame.image.width, clip.shape.width) << label(clip);
      ASSERT_EQ(frame.image.height, clip.shape.height) << label(clip);
      ASSERT_EQ(frame.image.format, rgb(clip)) << label(clip);
      ASSERT_TRUE(test::pixel_bytes_of(frame.image.view()) == expected[index])
          << label(clip) << " frame " << index;
      ++index;
    }
    EXPECT_EQ(index, expected.size()) << label(clip);
  }

  static fs::path* dir_;
  static std::vector<Clip>* every_width_;
  static std::vector<Clip>* common_;
};

fs::path* VideoShapes::dir_ = nullptr;
std::vector<Clip>* VideoShapes::every_width_ = nullptr;
std::vector<Clip>* VideoShapes::common_ = nullptr;

TEST_F(VideoShapes, EveryWidthFrom16DecodesAsFfmpegDecodesIt) {
  ASSERT_EQ(every_width_->size(), (widest_swept() - 15) * std::size(kSources));
  for (const Clip& clip : *every_width_) expect_decoded_as_ffmpeg(clip);
}

TEST_F(VideoShapes, CommonAndOddShapesDecodeAsFfmpegDecodesThem) {
  for (const Clip& clip : *common_) expect_decoded_as_ffmpeg(clip);
}

// `video` counts every frame as cpu-reference counts ffmpeg's decode of it.
TEST_F(VideoShapes, VideoCommandCountsEveryShapeAsTheReferenceDecode) {
  const Context cpu = Context::open("cpu");
  for (const Clip& clip : command_clips()) {
    const auto expected = reference_frames(clip);
    const auto r = test::run_cli({"video", clip.file.string(), "--device", "cpu", "--no-progress"});
    ASSERT_EQ(r.status, 0) << label(clip) << ": " << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::size_t index = 0;
    while (std::getline(lines, line)) {
      ASSERT_LT(index, expected.size()) << label(clip);
      const Histogram want = cpu.compute(
          ImageView::packed(expected[index].data(), clip.shape.width, clip.shape.height, rgb(clip)),
          {}, RunOptions{Strategy::CpuReference});
      const json row = json::parse(line);
      for (Channel c : kAllChannels) {
        const auto counts = want.counts(c);
        const auto got =
            row["histograms"][std::string(to_string(c))].get<std::vector<std::uint64_t>>();
        ASSERT_TRUE(std::equal(got.begin(), got.end(), counts.begin(), counts.end()))
            << label(clip) << " " << to_string(c) << " frame " << index;
      }
      ++index;
    }
    EXPECT_EQ(index, expected.size()) << label(clip);
  }
}

// `video --overlay` writes what the overlay of ffmpeg's decode encodes to.
// Both are encoded losslessly (crf 0), so they decode to the pictures given,
// whatever the encoder chose: x264's frame threads made the same pictures
// into lossy streams that decode differently in about one run in three with
// other processes busy on the same cores.
TEST_F(VideoShapes, OverlayVideoOfEveryShapeIsTheOverlayOfTheReferenceDecode) {
  const Context cpu = Context::open("cpu");
  for (const Clip& clip : command_clips()) {
    // Even sizes; a frame under 2 pixels is scaled up to 2.
    const std::uint32_t w = std::max(2U, clip.shape.width / 2 * 2);
    const std::uint32_t h = std::max(2U, clip.shape.height / 2 * 2);
    const fs::path out = *dir_ / "overlay.mkv";
    const auto r = test::run_cli({"video", clip.file.string(), "--overlay", "-o", out.string(),
                                  "--crf", "0", "--device", "cpu", "--no-progress"});
    ASSERT_EQ(r.status, 0) << label(clip) << ": " << r.err;
    const fs::path want = *dir_ / "expected.mkv";
    {
      // The source's frame times, from its start, as the command writes them.
      VideoReader reader(clip.file);
      std::vector<double> times;
      for (VideoFrame f; reader.next(f);) times.push_back(f.time - reader.start_time());
      const auto frames = reference_frames(clip);
      ASSERT_EQ(times.size(), frames.size()) << label(clip);
      VideoEncoding lossless;
      lossless.crf = 0;
      lossless.colour = reader.colour();  // as the command writes it (Rec. 709 for RGB sources)
      VideoWriter writer(want, w, h, reader.base_rate(), {}, lossless);
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const ImageView view =
            ImageView::packed(frames[i].data(), clip.shape.width, clip.shape.height, rgb(clip));
        writer.write(
            draw_overlay_cpu(view, cpu.compute(view, {}, RunOptions{Strategy::Cpu}), w, h),
            times[i]);
      }
      writer.finish();
    }
    const auto decoded = [&](const fs::path& file) {
      const fs::path raw = *dir_ / (file.stem().string() + ".yuv");
      EXPECT_TRUE(test::ffmpeg("-i '" + file.string() + "' -f rawvideo '" + raw.string() + "'"));
      return test::file_text(raw);
    };
    const std::string got = decoded(out), expected = decoded(want);
    EXPECT_FALSE(expected.empty()) << label(clip);
    EXPECT_TRUE(got == expected) << label(clip);
    fs::remove(out);
    fs::remove(want);
  }
}

// Frames of `clip` (coded at `coded`, shown at `shown`) set upright equal the
// ffmpeg command line's decode, which turns them; frames as coded its decode
// with -noautorotate. `rotation`: what VideoReader::rotation() says.
// RGB8 frame `rgb` of `size` turned clockwise by `clockwise` degrees, then
// mirrored left to right where `mirrored`: what rotation() and mirrored() say
// shows a frame as coded upright.
std::string turned_then_mirrored(std::string rgb, Shape size, int clockwise, bool mirrored) {
  for (int turn = 0; turn < clockwise; turn += 90) {
    std::string out(rgb.size(), '\0');
    // (x, y) of a w x h frame goes to (h - 1 - y, x) of the h x w one.
    for (std::uint32_t y = 0; y < size.height; ++y) {
      for (std::uint32_t x = 0; x < size.width; ++x) {
        const std::size_t to = (std::size_t{x} * size.height + (size.height - 1 - y)) * 3;
        out.replace(to, 3, rgb, (std::size_t{y} * size.width + x) * 3, 3);
      }
    }
    rgb = std::move(out);
    size = {size.height, size.width};
  }
  if (mirrored) {
    for (std::uint32_t y = 0; y < size.height; ++y) {
      for (std::uint32_t x = 0; x < size.width / 2; ++x) {
        const std::size_t a = (std::size_t{y} * size.width + x) * 3;
        const std::size_t b = (std::size_t{y} * size.width + (size.width - 1 - x)) * 3;
        for (int c = 0; c < 3; ++c) std::swap(rgb[a + c], rgb[b + c]);
      }
    }
  }
  return rgb;
}

void expect_shown_as_ffmpeg(const fs::path& clip, Shape coded, Shape shown, int rotation,
                            bool mirrored, const std::string& label) {
  // The ffmpeg command line's frames as coded, turned and mirrored as
  // rotation() and mirrored() say, are its frames as shown.
  {
    const fs::path as_coded = clip.string() + ".coded.raw";
    const fs::path as_shown = clip.string() + ".shown.raw";
    ASSERT_TRUE(test::ffmpeg("-noautorotate -i '" + clip.string() +
                             "' -frames:v 1 -f rawvideo -pix_fmt rgb24 '" + as_coded.string() +
                             "'"));
    ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() + "' -frames:v 1 -f rawvideo -pix_fmt rgb24 '" +
                             as_shown.string() + "'"));
    VideoReader reader(clip);
    EXPECT_EQ(reader.rotation(), rotation) << label;
    EXPECT_EQ(reader.mirrored(), mirrored) << label;
    EXPECT_TRUE(turned_then_mirrored(test::file_text(as_coded), coded, reader.rotation(),
                                     reader.mirrored()) == test::file_text(as_shown))
        << label << ": rotation " << reader.rotation() << ", mirrored " << reader.mirrored();
  }
  for (const bool upright : {true, false}) {
    const fs::path raw = clip.string() + ".raw";
    ASSERT_TRUE(test::ffmpeg(std::string(upright ? "" : "-noautorotate ") + "-i '" + clip.string() +
                             "' -f rawvideo -pix_fmt rgb24 '" + raw.string() + "'"));
    const std::string expected = test::file_text(raw);
    const std::size_t frame_bytes = std::size_t{coded.width} * coded.height * 3;
    ASSERT_EQ(expected.size(), 2 * frame_bytes) << label;
    VideoReader reader(clip);
    reader.set_upright(upright);
    const Shape want = upright ? shown : coded;
    EXPECT_EQ(reader.width(), want.width) << label;
    EXPECT_EQ(reader.height(), want.height) << label;
    VideoFrame frame;
    std::size_t index = 0;
    while (reader.next(frame)) {
      ASSERT_LT(index, 2U) << label;
      ASSERT_EQ(frame.image.width, want.width) << label;
      ASSERT_EQ(frame.image.height, want.height) << label;
      const std::vector<std::byte> got = test::pixel_bytes_of(frame.image.view());
      EXPECT_TRUE(got.size() == frame_bytes &&
                  std::memcmp(got.data(), expected.data() + index * frame_bytes, frame_bytes) == 0)
          << label << (upright ? " upright" : " as coded") << " frame " << index;
      ++index;
    }
    EXPECT_EQ(index, 2U) << label;
  }
}

// A copy of the MP4 `from` whose video track header holds the matrix
// (a b; c d) (16.16 fixed point): a mirroring display matrix, which the
// ffmpeg command line (5.1) reads but cannot write.
bool with_track_matrix(const fs::path& from, const fs::path& to, std::int32_t a, std::int32_t b,
                       std::int32_t c, std::int32_t d) {
  std::string bytes = test::file_text(from);
  const std::size_t at = bytes.find("tkhd");
  if (at == std::string::npos || at + 64 > bytes.size()) return false;
  // After the box type: version and flags, two times (8 bytes each in
  // version 1), track ID, reserved, duration (8 in version 1), 8 reserved,
  // layer, group, volume, reserved: then the matrix a b u c d v x y w.
  const std::size_t matrix = at + (bytes[at + 4] == 1 ? 56 : 44);
  if (matrix + 36 > bytes.size()) return false;
  const auto put = [&](std::size_t offset, std::int32_t value) {
    const auto u = static_cast<std::uint32_t>(value);
    for (int k = 0; k < 4; ++k) bytes[matrix + offset + k] = static_cast<char>(u >> (24 - 8 * k));
  };
  put(0, a);
  put(4, b);
  put(12, c);
  put(16, d);
  std::ofstream out(to, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

// A clip whose display matrix turns it (a phone's portrait clip, coded
// landscape): frames set upright equal the ffmpeg command line's decode, which
// turns them; frames as coded equal its decode with -noautorotate; a written
// video is upright.
TEST_F(VideoShapes, TurnedClipsAreShownAsFfmpegShowsThem) {
  const std::vector<std::pair<std::string, Shape>> sources = {{"yuv420p", {96, 64}},
                                                              {"yuv444p", {38, 22}}};
  for (const auto& [pix_fmt, shape] : sources) {
    const std::string size = std::to_string(shape.width) + "x" + std::to_string(shape.height);
    const fs::path plain = *dir_ / ("plain-" + pix_fmt + ".mp4");
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=" + size +
                             ":rate=10 -frames:v 2 -c:v libx264 -preset ultrafast -pix_fmt " +
                             pix_fmt + " '" + plain.string() + "'"));
    for (const int turn : {0, 90, 180, 270}) {
      const std::string label = pix_fmt + " " + size + " turned " + std::to_string(turn);
      const fs::path clip = *dir_ / ("turned-" + std::to_string(turn) + "-" + pix_fmt + ".mp4");
      // rotate=N: a display matrix turning the frames N degrees counter-clockwise.
      ASSERT_TRUE(test::ffmpeg("-i '" + plain.string() + "' -c copy -metadata:s:v:0 rotate=" +
                               std::to_string(turn) + " '" + clip.string() + "'"));
      const bool across = turn == 90 || turn == 270;
      const Shape shown = across ? Shape{shape.height, shape.width} : shape;
      expect_shown_as_ffmpeg(clip, shape, shown, (360 - turn) % 360, false, label);
      const fs::path out = *dir_ / "turned-overlay.mp4";
      const auto r = test::run_cli({"video", clip.string(), "--overlay", "-o", out.string(),
                                    "--device", "cpu", "--no-progress"});
      ASSERT_EQ(r.status, 0) << label << ": " << r.err;
      VideoReader written(out);
      EXPECT_EQ(written.rotation(), 0) << label;
      EXPECT_EQ(written.width(), shown.width) << label;
      EXPECT_EQ(written.height(), shown.height) << label;
    }
  }
}

// Display matrices that mirror the frames (a front camera's): shown
// mirrored as the ffmpeg command line shows them.
TEST_F(VideoShapes, MirroredClipsAreShownAsFfmpegShowsThem) {
  constexpr std::int32_t kOne = 1 << 16;
  struct Mirror {
    const char* name;
    std::int32_t a, b, c, d;
    int rotation;  // the turn before the mirroring (ffprobe's rotation: -180, 0, -90, 90)
    bool across;
  };
  const Mirror mirrors[] = {{"hflip", -kOne, 0, 0, kOne, 0, false},
                            {"vflip", kOne, 0, 0, -kOne, 180, false},
                            {"transpose", 0, kOne, kOne, 0, 90, true},
                            {"antitranspose", 0, -kOne, -kOne, 0, 270, true}};
  const Shape shape{96, 64};
  const fs::path plain = *dir_ / "mirror-plain.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=96x64:rate=10 -frames:v 2 -c:v libx264 -preset ultrafast "
      "-pix_fmt yuv420p '" +
      plain.string() + "'"));
  for (const Mirror& m : mirrors) {
    const fs::path clip = *dir_ / (std::string("mirror-") + m.name + ".mp4");
    ASSERT_TRUE(with_track_matrix(plain, clip, m.a, m.b, m.c, m.d)) << m.name;
    const Shape shown = m.across ? Shape{shape.height, shape.width} : shape;
    expect_shown_as_ffmpeg(clip, shape, shown, m.rotation, true, m.name);
  }
}

}  // namespace
}  // namespace gpuhist
