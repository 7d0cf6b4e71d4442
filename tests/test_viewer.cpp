// `gpuhist view` on a virtual X display (Xvfb) with the software Vulkan
// device: screenshots of the window (xwd) must equal the CPU overlay of the
// same picture byte for byte, keys (sent with xdotool) must change the scale
// and channels and quit, a resized window must be covered again, and a video
// must play to its last frame.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cpu/reference.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/video_file.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"
#include "view/display_frame.hpp"
#include "view/frame_source.hpp"

extern char** environ;

namespace gpuhist {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// A child process with its own environment additions; killed if still running at the end.
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::vector<std::string>& env,
        const fs::path& log) {
    std::vector<std::string> environment = env;
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string entry = *e;
      if (entry.rfind("DISPLAY=", 0) != 0) environment.push_back(entry);
    }
    std::vector<char*> argv, envp;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    if (posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // Asks the child to end (so that Xvfb removes its lock and socket), then forces it.
  ~Child() {
    if (pid_ <= 0 || status_) return;
    kill(pid_, SIGTERM);
    if (!wait_for(std::chrono::milliseconds(3000))) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  [[nodiscard]] bool started() const { return pid_ > 0; }
  // The exit status once the child has exited within `timeout`; nullopt otherwise.
  std::optional<int> wait_for(std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!status_ && std::chrono::steady_clock::now() < end) {
      int raw = 0;
      if (waitpid(pid_, &raw, WNOHANG) == pid_) {
        status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      } else {
        std::this_thread::sleep_for(50ms);
      }
    }
    return status_;
  }

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A window's pixels from an XWD dump (ZPixmap, 24 or 32 bits per pixel).
std::optional<Picture> parse_xwd(const std::string& data) {
  if (data.size() < 100) return std::nullopt;
  const auto field = [&](std::size_t i) {
    const auto* p = reinterpret_cast<const unsigned char*>(data.data()) + i * 4;
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           p[3];
  };
  const std::uint32_t header = field(0), width = field(4), height = field(5);
  const std::uint32_t byte_order = field(7), bits = field(11), line = field(12);
  const std::uint32_t masks[3] = {field(14), field(15), field(16)};
  const std::uint32_t colours = field(19);
  const std::size_t start = header + std::size_t{colours} * 12;
  if (field(2) != 2 || (bits != 32 && bits != 24) ||
      data.size() < start + std::size_t{line} * height) {
    return std::nullopt;
  }
  Picture picture{width, height, std::vector<std::uint8_t>(std::size_t{width} * height * 4)};
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      const auto* p =
          reinterpret_cast<const unsigned char*>(data.data()) + start + y * line + x * (bits / 8);
      std::uint32_t v = 0;
      for (std::uint32_t b = 0; b < bits / 8; ++b) {
        v |= std::uint32_t{p[b]} << (byte_order == 0 ? 8 * b : 8 * (bits / 8 - 1 - b));
      }
      std::uint8_t* out = &picture.rgba[(std::size_t{y} * width + x) * 4];
      for (int c = 0; c < 3; ++c) {
        std::uint32_t m = masks[c], shift = 0;
        while (m != 0 && (m & 1) == 0) {
          m >>= 1;
          ++shift;
        }
        out[c] = static_cast<std::uint8_t>((v & masks[c]) >> shift);
      }
      out[3] = 0xFF;
    }
  }
  return picture;
}

std::size_t differing_pixels(const Picture& a, const Picture& b) {
  if (a.width != b.width || a.height != b.height) return SIZE_MAX;
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
    n += a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] || a.rgba[i + 2] != b.rgba[i + 2];
  }
  return n;
}

class Viewer : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::temp_dir();
    // A display number nobody uses.
    for (int n = 100 + getpid() % 300;; ++n) {
      if (!fs::exists("/tmp/.X" + std::to_string(n) + "-lock") &&
          !fs::exists("/tmp/.X11-unix/X" + std::to_string(n))) {
        display_ = ":" + std::to_string(n);
        break;
      }
    }
    xvfb_.emplace(std::vector<std::string>{"Xvfb", display_, "-screen", "0", "640x480x24",
                                           "-nolisten", "tcp"},
                  std::vector<std::string>{}, fs::path(dir_) / "xvfb.log");
    ASSERT_TRUE(xvfb_->started()) << "Xvfb is not installed";
    // Ready once a client can talk to it (a socket left by an earlier server proves nothing).
    const std::string probe = "xdpyinfo -display " + display_ + " >/dev/null 2>&1";
    bool ready = false;
    for (int i = 0; i < 300 && !ready; ++i) {
      ready = std::system(probe.c_str()) == 0;
      if (!ready) std::this_thread::sleep_for(100ms);
    }
    ASSERT_TRUE(ready) << read_file(fs::path(dir_) / "xvfb.log");
  }
  void TearDown() override {
    xvfb_.reset();
    fs::remove_all(dir_);
  }

  std::unique_ptr<Child> start_viewer(const std::vector<std::string>& options) {
    std::vector<std::string> args = {GPUHIST_BINARY, "view"};
    args.insert(args.end(), options.begin(), options.end());
    return std::make_unique<Child>(args, std::vector<std::string>{"DISPLAY=" + display_},
                                   fs::path(dir_) / "view.log");
  }

  // The window titled `title`, or nullopt when it is not there (yet).
  std::optional<Picture> screenshot(const std::string& title) {
    const fs::path out = fs::path(dir_) / "shot.xwd";
    const std::string command = "DISPLAY=" + display_ + " xwd -silent -name '" + title +
                                "' -out '" + out.string() + "' 2>/dev/null";
    if (std::system(command.c_str()) != 0) return std::nullopt;
    return parse_xwd(read_file(out));
  }

  // Waits (up to a minute: the software device is slow) until the window
  // shows `expected`; the number of differing pixels of the last screenshot.
  std::size_t wait_for_picture(const std::string& title, const Picture& expected) {
    std::size_t differing = SIZE_MAX;
    for (int i = 0; i < 240 && differing != 0; ++i) {
      if (const auto shot = screenshot(title)) differing = differing_pixels(*shot, expected);
      if (differing != 0) std::this_thread::sleep_for(250ms);
    }
    return differing;
  }

  // Presses a key in the window (sent to it directly: there is no window
  // manager to give it the focus). xdotool may report failure for a key that
  // closes the window before it is done; callers check the effect instead.
  void key(const std::string& title, const std::string& name) {
    const std::string command = "DISPLAY=" + display_ + " xdotool search --name '" + title +
                                "' key --window %1 " + name + " >/dev/null 2>&1";
    (void)std::system(command.c_str());
  }

  // The viewer's output, and the X server's when it has ended (a viewer
  // that cannot open its window has nothing else to say).
  std::string log() {
    std::string text = read_file(fs::path(dir_) / "view.log");
    if (xvfb_ && xvfb_->wait_for(0ms)) {
      text += "\nXvfb " + display_ + " ended with status " + std::to_string(*xvfb_->wait_for(0ms)) +
              ":\n" + read_file(fs::path(dir_) / "xvfb.log");
    }
    return text;
  }

  std::string dir_;
  std::string display_;
  std::optional<Child> xvfb_;
};

TEST_F(Viewer, ShowsTheOverlayOfAnImageAndFollowsTheKeys) {
  // 90x60: left two thirds a dark blue, the rest a ramp, so every panel has bars.
  Picture source{90, 60, std::vector<std::uint8_t>(90 * 60 * 4)};
  for (std::uint32_t y = 0; y < 60; ++y) {
    for (std::uint32_t x = 0; x < 90; ++x) {
      std::uint8_t* p = &source.rgba[(y * 90 + x) * 4];
      p[0] = x < 60 ? 20 : static_cast<std::uint8_t>(x * 2 + y);
      p[1] = x < 60 ? 40 : static_cast<std::uint8_t>(255 - x);
      p[2] = x < 60 ? 120 : static_cast<std::uint8_t>(y * 4);
      p[3] = 255;
    }
  }
  const fs::path file = fs::path(dir_) / "still.png";
  save_picture(file, source);
  const Image image = load_image(file);
  const Histogram histogram = cpu::count_reference(image.view(), {});
  const std::string title = "gpuhist: still.png";

  auto viewer = start_viewer({file.string(), "--size", "160x120"});
  OverlayStyle style;
  EXPECT_EQ(wait_for_picture(title, draw_overlay_cpu(image.view(), histogram, 160, 120, style)), 0U)
      << log();

  key(title, "s");  // seed -> max
  style.scale = ScaleMode::Max;
  EXPECT_EQ(wait_for_picture(title, draw_overlay_cpu(image.view(), histogram, 160, 120, style)), 0U)
      << log();
  key(title, "c");  // RGB -> red
  style.left_channels = kDrawRed;
  EXPECT_EQ(wait_for_picture(title, draw_overlay_cpu(image.view(), histogram, 160, 120, style)), 0U)
      << log();

  // A new window size: the picture covers it again, panels laid out for it.
  const std::string resize = "DISPLAY=" + display_ + " xdotool search --name '" + title +
                             "' windowsize --sync %1 200 90 >/dev/null 2>&1";
  (void)std::system(resize.c_str());
  EXPECT_EQ(wait_for_picture(title, draw_overlay_cpu(image.view(), histogram, 200, 90, style)), 0U)
      << log();

  key(title, "q");
  EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << log();
  EXPECT_NE(log().find("scale: max"), std::string::npos) << log();
  EXPECT_NE(log().find("channels: red"), std::string::npos) << log();
  // One picture, drawn again for each key and the resize: one frame shown.
  EXPECT_NE(log().find("gpuhist view: 1 frame shown"), std::string::npos) << log();
}

TEST_F(Viewer, TheAKeyCyclesTheAdjustments) {
  // A dull picture: a ramp squeezed into 80..143, with colour.
  Picture source{96, 64, std::vector<std::uint8_t>(96 * 64 * 4)};
  for (std::uint32_t y = 0; y < 64; ++y) {
    for (std::uint32_t x = 0; x < 96; ++x) {
      std::uint8_t* p = &source.rgba[(y * 96 + x) * 4];
      p[0] = static_cast<std::uint8_t>(80 + (x * 2 / 3));
      p[1] = static_cast<std::uint8_t>(80 + y);
      p[2] = static_cast<std::uint8_t>(100 + (x + y) % 40);
      p[3] = 255;
    }
  }
  const fs::path file = fs::path(dir_) / "dull.png";
  save_picture(file, source);
  const Image image = load_image(file);
  const Context cpu = Context::open("cpu");
  // The CPU's adjustment of the picture, with the parameters given on the
  // command line, and its overlay at the window's size.
  const auto expected = [&](std::optional<AdjustKind> kind) {
    if (!kind) {
      return draw_overlay_cpu(image.view(), cpu::count_reference(image.view(), {}), 160, 120);
    }
    Adjustment a;
    a.kind = *kind;
    a.tiles_x = 3;
    a.tiles_y = 2;
    Image out = Image::allocate(image.width, image.height, adjusted_format(image.format, a));
    (void)adjust_image(cpu, image.view(), a, out.bytes(), RunOptions{Strategy::CpuReference},
                       false);
    const Image shown = display_frame(out.view());
    return draw_overlay_cpu(shown.view(), cpu::count_reference(shown.view(), {}), 160, 120);
  };
  const std::string title = "gpuhist: dull.png";
  auto viewer =
      start_viewer({file.string(), "--size", "160x120", "--adjust", "clahe", "--tiles", "3x2"});
  EXPECT_EQ(wait_for_picture(title, expected(AdjustKind::Clahe)), 0U) << log();
  for (std::optional<AdjustKind> next :
       {std::optional(AdjustKind::Autolevel), std::optional(AdjustKind::Threshold),
        std::optional<AdjustKind>(), std::optional(AdjustKind::Equalize)}) {
    key(title, "a");
    EXPECT_EQ(wait_for_picture(title, expected(next)), 0U)
        << (next ? to_string(*next) : "none") << "\n"
        << log();
  }
  key(title, "q");
  EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << log();
  EXPECT_NE(log().find("adjustment: threshold"), std::string::npos) << log();
  EXPECT_NE(log().find("adjustment: none"), std::string::npos) << log();
  // The viewer cannot match without a reference, nor take bad parameters; a
  // reference it cannot read is an input error.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--adjust", "match"}, std::vector<std::string>{"--adjust", "blur"},
        std::vector<std::string>{"--tiles", "0x0"}}) {
    std::vector<std::string> full = {"view", file.string()};
    full.insert(full.end(), args.begin(), args.end());
    const auto r = test::run_cli(full);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.err;
  }
  const auto missing = test::run_cli({"view", file.string(), "--adjust", "match", "--reference",
                                      (fs::path(dir_) / "missing.png").string()});
  EXPECT_EQ(missing.status, 1) << missing.err;
}

TEST_F(Viewer, MatchesToAReferenceAndTheAKeyGoesOnToNone) {
  // A dull picture matched to a bright, contrasty reference, as the CPU
  // matches it; then `a` leaves match for none, none for equalize, and comes
  // back to match after threshold.
  Picture source{64, 48, std::vector<std::uint8_t>(64 * 48 * 4)};
  Picture bright{40, 30, std::vector<std::uint8_t>(40 * 30 * 4)};
  for (std::uint32_t i = 0; i < 64 * 48; ++i) {
    std::uint8_t* p = &source.rgba[i * 4];
    p[0] = static_cast<std::uint8_t>(90 + i % 50);
    p[1] = static_cast<std::uint8_t>(100 + (i / 64) % 30);
    p[2] = static_cast<std::uint8_t>(70 + (i * 7) % 60);
    p[3] = 255;
  }
  for (std::uint32_t i = 0; i < 40 * 30; ++i) {
    std::uint8_t* p = &bright.rgba[i * 4];
    p[0] = static_cast<std::uint8_t>(i % 2 == 0 ? 250 - i % 40 : 20 + i % 90);
    p[1] = static_cast<std::uint8_t>(255 - i % 200);
    p[2] = static_cast<std::uint8_t>((i * 13) % 256);
    p[3] = 255;
  }
  const fs::path file = fs::path(dir_) / "dull.png";
  const fs::path reference_file = fs::path(dir_) / "bright.png";
  save_picture(file, source);
  save_picture(reference_file, bright);
  const Image image = load_image(file);
  const Image reference = load_image(reference_file);
  const Context cpu = Context::open("cpu");
  const auto overlay = [&](const Image& shown) {
    return draw_overlay_cpu(shown.view(), cpu::count_reference(shown.view(), {}), 160, 120);
  };
  const Histogram counted = cpu::count_reference(reference.view(), tone_options(image.format));
  Adjustment match;
  match.kind = AdjustKind::Match;
  match.reference = &counted;
  Image matched = image;
  (void)adjust_image(cpu, image.view(), match, matched.bytes(), RunOptions{Strategy::CpuReference},
                     false);
  ASSERT_NE(test::pixel_bytes_of(matched.view()), test::pixel_bytes_of(image.view()));
  Adjustment equalize;
  Image equalized = image;
  (void)adjust_image(cpu, image.view(), equalize, equalized.bytes(),
                     RunOptions{Strategy::CpuReference}, false);

  const std::string title = "gpuhist: dull.png";
  auto viewer = start_viewer({file.string(), "--size", "160x120", "--adjust", "match",
                              "--reference", reference_file.string()});
  EXPECT_EQ(wait_for_picture(title, overlay(display_frame(matched.view()))), 0U) << log();
  key(title, "a");
  EXPECT_EQ(wait_for_picture(title, overlay(display_frame(image.view()))), 0U) << log();
  key(title, "a");
  EXPECT_EQ(wait_for_picture(title, overlay(display_frame(equalized.view()))), 0U) << log();
  for (int i = 0; i < 4; ++i) key(title, "a");  // clahe, autolevel, threshold, match
  EXPECT_EQ(wait_for_picture(title, overlay(display_frame(matched.view()))), 0U) << log();
  key(title, "q");
  EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << log();
  EXPECT_NE(log().find("adjustment: none"), std::string::npos) << log();
}

TEST_F(Viewer, PlaysAVideoToItsLastFrame) {
  const fs::path clip = fs::path(dir_) / "clip.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 6 -c:v ffv1 '" +
                           clip.string() + "'"));
  VideoReader reader(clip);
  VideoFrame frame, last;
  while (reader.next(frame)) last = frame;
  const Histogram histogram = cpu::count_reference(last.image.view(), {});
  const Picture expected = draw_overlay_cpu(last.image.view(), histogram, 128, 96);

  auto viewer = start_viewer({clip.string(), "--size", "128x96"});
  EXPECT_EQ(wait_for_picture("gpuhist: clip.mkv", expected), 0U) << log();
  key("gpuhist: clip.mkv", "Escape");
  EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << log();
  EXPECT_NE(log().find("end of video"), std::string::npos) << log();
}

// Shapes whose rows the converter's vector code overran (ctest runs this
// program under glibc's malloc checks): the last frame shown is the overlay
// of the ffmpeg command line's own decode of it.
TEST_F(Viewer, PlaysThePortraitAndOddShapesAsFfmpegDecodesThem) {
  struct Case {
    const char* name;
    const char* source;  // testsrc2's options and filters
    std::uint32_t width, height;
    const char* encode;
  };
  const Case cases[] = {
      {"portrait.mp4", "1080x1920:rate=10", 1080, 1920,
       "-pix_fmt yuv420p -c:v libx264 -preset ultrafast"},
      {"narrow.mp4", "362x204:rate=10", 362, 204,
       "-pix_fmt yuv422p -c:v libx264 -preset ultrafast"},
      {"odd.avi", "18x14:rate=10,format=rgb24,crop=17:13:0:0", 17, 13,
       "-pix_fmt yuvj420p -c:v mjpeg"},
  };
  for (const Case& c : cases) {
    const fs::path clip = fs::path(dir_) / c.name;
    const fs::path raw = fs::path(dir_) / "last.raw";
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=" + std::string(c.source) +
                             " -frames:v 3 " + c.encode + " '" + clip.string() + "'"));
    ASSERT_TRUE(test::ffmpeg("-i '" + clip.string() +
                             "' -f rawvideo -pix_fmt rgb24 -sws_flags bicubic '" + raw.string() +
                             "'"));
    const std::string pixels = read_file(raw);
    const std::size_t frame = std::size_t{c.width} * c.height * 3;
    ASSERT_EQ(pixels.size(), 3 * frame) << c.name;
    const ImageView last = ImageView::packed(pixels.data() + 2 * frame, c.width, c.height,
                                             {ChannelLayout::RGB, SampleType::U8});
    const Picture expected = draw_overlay_cpu(last, cpu::count_reference(last, {}), 128, 96);
    const std::string title = std::string("gpuhist: ") + c.name;
    auto viewer = start_viewer({clip.string(), "--size", "128x96"});
    EXPECT_EQ(wait_for_picture(title, expected), 0U) << c.name << ": " << log();
    key(title, "Escape");
    EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << c.name << ": " << log();
  }
}

// Pixels twice as wide as high (an anamorphic clip's): the window opens at
// the shape players show, and the frame covers it as shown, each pixel
// twice across.
TEST_F(Viewer, AnAnamorphicClipIsShownWithItsPixelsShape) {
  const fs::path clip = fs::path(dir_) / "wide.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10,setsar=2 -frames:v 2 -c:v ffv1 '" +
                   clip.string() + "'"));
  VideoReader reader(clip);
  ASSERT_EQ(reader.pixel_aspect(), (PixelAspect{2, 1}));
  VideoFrame frame, last;
  while (reader.next(frame)) last = frame;
  const ImageView source = last.image.view();
  std::vector<std::uint8_t> doubled(std::size_t{128} * 48 * 3);
  for (std::uint32_t y = 0; y < 48; ++y) {
    const auto* row = reinterpret_cast<const std::uint8_t*>(source.row(y));
    for (std::uint32_t x = 0; x < 128; ++x) {
      std::memcpy(&doubled[(std::size_t{y} * 128 + x) * 3], row + (x / 2) * 3, 3);
    }
  }
  const ImageView shown =
      ImageView::packed(doubled.data(), 128, 48, {ChannelLayout::RGB, SampleType::U8});
  const Picture expected = draw_overlay_cpu(shown, cpu::count_reference(source, {}), 128, 48);
  auto viewer = start_viewer({clip.string()});
  EXPECT_EQ(wait_for_picture("gpuhist: wide.mkv", expected), 0U) << log();
  key("gpuhist: wide.mkv", "Escape");
  EXPECT_EQ(viewer->wait_for(30s), std::optional<int>(0)) << log();

  // The same pixels in a clip shown turned a quarter: upright 48x64 of 1:2
  // pixels, shown 24x64, each target column the centre of two.
  const fs::path coded = fs::path(dir_) / "coded.mp4", turned = fs::path(dir_) / "turned.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10,setsar=2 -frames:v 2 "
                   "-c:v libx264 -preset ultrafast '" +
                   coded.string() + "'"));
  ASSERT_TRUE(test::ffmpeg("-i '" + coded.string() + "' -c copy -metadata:s:v:0 rotate=90 '" +
                           turned.string() + "'"));
  VideoReader upright(turned);
  upright.set_upright(true);
  ASSERT_EQ(upright.pixel_aspect(), (PixelAspect{1, 2}));
  VideoFrame last_upright;
  while (upright.next(frame)) last_upright = frame;
  const ImageView stood = last_upright.image.view();
  ASSERT_EQ(stood.width, 48U);
  std::vector<std::uint8_t> halved(std::size_t{24} * 64 * 3);
  for (std::uint32_t y = 0; y < 64; ++y) {
    const auto* row = reinterpret_cast<const std::uint8_t*>(stood.row(y));
    for (std::uint32_t x = 0; x < 24; ++x) {
      std::memcpy(&halved[(std::size_t{y} * 24 + x) * 3], row + (2 * x + 1) * 3, 3);
    }
  }
  const Picture narrow = draw_overlay_cpu(
      ImageView::packed(halved.data(), 24, 64, {ChannelLayout::RGB, SampleType::U8}),
      cpu::count_reference(stood, {}), 24, 64);
  auto second = start_viewer({turned.string()});
  EXPECT_EQ(wait_for_picture("gpuhist: turned.mp4", narrow), 0U) << log();
  key("gpuhist: turned.mp4", "Escape");
  EXPECT_EQ(second->wait_for(30s), std::optional<int>(0)) << log();
}

TEST_F(Viewer, ExitsAtTheEndWhenAsked) {
  const fs::path clip = fs::path(dir_) / "short.mp4";
  ASSERT_TRUE(test::ffmpeg(
      "-f lavfi -i testsrc2=size=48x32:rate=20 -frames:v 8 -c:v libx264 -pix_fmt yuv420p '" +
      clip.string() + "'"));
  auto viewer = start_viewer({clip.string(), "--exit-at-end"});
  EXPECT_EQ(viewer->wait_for(60s), std::optional<int>(0)) << log();
  EXPECT_NE(log().find("frames shown"), std::string::npos) << log();
}

// A damaged stream is played as decoded, and its errors said as the viewer
// closes, status 1, as `video` says them.
TEST_F(Viewer, ADamagedStreamIsPlayedAndItsErrorsSaid) {
  const fs::path whole = fs::path(dir_) / "whole.ts";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=20,noise=alls=20:allf=t "
                   "-frames:v 20 -c:v libx264 -pix_fmt yuv420p -f mpegts '" +
                   whole.string() + "'"));
  const std::string bytes = test::file_text(whole);
  const fs::path cut = fs::path(dir_) / "cut.ts";
  {
    std::ofstream out(cut, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() * 2 / 3));
  }
  auto viewer = start_viewer({cut.string(), "--exit-at-end"});
  EXPECT_EQ(viewer->wait_for(60s), std::optional<int>(1)) << log();
  EXPECT_NE(log().find("in the stream (the file may be truncated or damaged); the first: "),
            std::string::npos)
      << log();
}

// The window destroyed by another program, or the X server gone: one line
// saying so and the display's status (3), not Xlib's lines and status 1.
TEST_F(Viewer, ADisplayLostIsOneLineAndStatusThree) {
  const fs::path photo = fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png";
  const std::string title = "gpuhist: coffee.png";
  auto destroyed = start_viewer({photo.string(), "--size", "64x48"});
  for (int i = 0; i < 240 && (!screenshot(title) || log().find("drawing on") == std::string::npos);
       ++i) {
    std::this_thread::sleep_for(250ms);
  }
  std::this_thread::sleep_for(500ms);  // the picture drawn, the viewer waiting on its events
  const std::string destroy =
      "DISPLAY=" + display_ + " xdotool search --name '" + title + "' windowclose >/dev/null 2>&1";
  (void)std::system(destroy.c_str());
  EXPECT_EQ(destroyed->wait_for(60s), std::optional<int>(3)) << log();
  const std::string said = read_file(fs::path(dir_) / "view.log");
  EXPECT_NE(said.find("gpuhist: error: the X display refused a request for the window ("),
            std::string::npos)
      << log();
  EXPECT_EQ(said.find("X Error of failed request"), std::string::npos) << said;
  destroyed.reset();

  auto orphaned = start_viewer({photo.string(), "--size", "64x48"});
  for (int i = 0; i < 240 && (!screenshot(title) || log().find("drawing on") == std::string::npos);
       ++i) {
    std::this_thread::sleep_for(250ms);
  }
  std::this_thread::sleep_for(500ms);  // the picture drawn, the viewer waiting on its events
  xvfb_.reset();                       // the server ends
  EXPECT_EQ(orphaned->wait_for(60s), std::optional<int>(3))
      << read_file(fs::path(dir_) / "view.log");
  const std::string lost = read_file(fs::path(dir_) / "view.log");
  EXPECT_NE(lost.find("gpuhist: error: the connection to the X display was lost"),
            std::string::npos)
      << lost;
  EXPECT_EQ(lost.find("XIO"), std::string::npos) << lost;
}

// A stream of which no frame could be decoded (its packets all lost) is its
// file's error: the viewer does not wait on an empty window for a key.
TEST_F(Viewer, AStreamWithNoFrameIsAnError) {
  const fs::path dropped = fs::path(dir_) / "dropped.mkv";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -f lavfi -i sine=frequency=440 -t 0.5 "
                   "-c:v libx264 -c:a aac -bsf:v noise=drop=1 '" +
                   dropped.string() + "'"));
  auto viewer = start_viewer({dropped.string()});
  EXPECT_EQ(viewer->wait_for(60s), std::optional<int>(1)) << log();
  EXPECT_NE(log().find("dropped.mkv: no frame could be decoded"), std::string::npos) << log();
  // No window opened for it: nothing drawn.
  EXPECT_EQ(log().find("drawing on"), std::string::npos) << log();

  // A file cut before its first frame's data: its errors are the one line.
  const fs::path whole = fs::path(dir_) / "whole.mp4", cut = fs::path(dir_) / "cut.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=10 -frames:v 10 -c:v libx264 "
                   "-movflags +faststart '" +
                   whole.string() + "'"));
  const std::string bytes = test::file_text(whole);
  const std::size_t data = bytes.find("mdat");
  ASSERT_NE(data, std::string::npos);
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, data + 64);
  auto cut_viewer = start_viewer({cut.string()});
  EXPECT_EQ(cut_viewer->wait_for(60s), std::optional<int>(1)) << log();
  const std::string said = read_file(fs::path(dir_) / "view.log");
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n') -
                static_cast<std::ptrdiff_t>(said.find("frames shown") != std::string::npos),
            1)
      << said;
  EXPECT_NE(said.find("cut.mp4: "), std::string::npos) << said;
  EXPECT_EQ(said.find("drawing on"), std::string::npos) << said;
}

TEST(ViewerErrors, NoDisplayMissingFileAndBadOptions) {
  const std::string dir = test::temp_dir();
  const fs::path clip = fs::path(dir) / "clip.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24:rate=10 -frames:v 2 -c:v ffv1 '" +
                           clip.string() + "'"));
  {
    // No display at all: a device error naming the cause.
    Child viewer({GPUHIST_BINARY, "view", clip.string()}, {}, fs::path(dir) / "log");
    EXPECT_EQ(viewer.wait_for(30s), std::optional<int>(3));
    EXPECT_NE(read_file(fs::path(dir) / "log").find("display"), std::string::npos)
        << read_file(fs::path(dir) / "log");
  }
  auto missing = test::run_cli({"view", (fs::path(dir) / "nope.mkv").string()});
  EXPECT_EQ(missing.status, 1) << missing.err;
  auto piped = test::run_cli({"view", "-"});
  EXPECT_EQ(piped.status, 2) << piped.err;
  test::expect_one_line_error(piped, "the viewer plays a file, not standard input");
  auto bad_size = test::run_cli({"view", clip.string(), "--size", "1x1"});
  EXPECT_EQ(bad_size.status, 2) << bad_size.err;
  auto bad_scale = test::run_cli({"view", clip.string(), "--scale", "cubic"});
  EXPECT_EQ(bad_scale.status, 2) << bad_scale.err;
  auto no_vulkan = test::run_cli({"view", clip.string(), "--device", "cpu"});
  EXPECT_EQ(no_vulkan.status, 2) << no_vulkan.err;
  const fs::path text = fs::path(dir) / "text.mp4";
  std::ofstream(text) << "not a video";
  auto corrupt = test::run_cli({"view", text.string()});
  EXPECT_EQ(corrupt.status, 1) << corrupt.err;
  fs::remove_all(dir);
}

// The viewer's frames on a clock the test turns: each frame at its time; a
// frame whose successor is due too is skipped (a slow device shows fewer
// frames on time, not every frame later and later); a pause holds the clock.
TEST(FrameSource, FramesBehindTheClockAreSkippedAndAPauseHoldsIt) {
  const std::string dir = test::temp_dir();
  const fs::path clip = fs::path(dir) / "ten.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 10 -c:v ffv1 '" +
                           clip.string() + "'"));
  std::vector<std::vector<std::byte>> frames;
  std::vector<double> times;
  {
    VideoReader reader(clip);
    VideoFrame frame;
    while (reader.next(frame)) {
      frames.push_back(test::pixel_bytes_of(frame.image.view()));
      times.push_back(frame.time);
    }
  }
  ASSERT_EQ(frames.size(), 10U);
  ASSERT_NEAR(times[9] - times[0], 0.9, 1e-6);
  view::FrameSource source(clip, {}, {});
  bool ended = false;
  const auto shown = [&](double now) -> int {
    const std::optional<Image> picture = source.next(now, ended);
    if (!picture) return -1;
    const auto bytes = test::pixel_bytes_of(picture->view());
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i] == bytes) return static_cast<int>(i);
    }
    return -2;
  };
  EXPECT_EQ(shown(100.0), 0);    // the first frame sets the clock
  EXPECT_EQ(shown(100.05), -1);  // frame 1 is due at 100.1
  EXPECT_EQ(shown(100.55), 5);   // frames 1 to 4 are late: skipped
  EXPECT_EQ(source.skipped(), 4);
  EXPECT_EQ(shown(100.61), 6);
  EXPECT_TRUE(source.toggle_pause(100.62));
  EXPECT_EQ(shown(150.0), -1);  // paused
  EXPECT_TRUE(source.toggle_pause(200.0));
  EXPECT_EQ(shown(200.0), 7);  // on from where it paused
  EXPECT_EQ(shown(200.05), -1);
  EXPECT_EQ(shown(200.25), 9);  // frame 8 skipped
  EXPECT_EQ(source.skipped(), 5);
  EXPECT_FALSE(ended);
  EXPECT_EQ(shown(201.0), -1);
  EXPECT_TRUE(ended);
  fs::remove_all(dir);
}

// What the viewer shows of pictures that are not 8- or 16-bit RGB.
TEST(DisplayFrame, GreyIsRepeatedFloatIsClampedAndRoundedRgbIsKept) {
  const std::uint8_t grey[4] = {0, 7, 128, 255};
  const Image from_grey =
      display_frame(ImageView::packed(grey, 2, 2, {ChannelLayout::Grey, SampleType::U8}));
  EXPECT_EQ(from_grey.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  const auto* g = reinterpret_cast<const std::uint8_t*>(from_grey.storage.data());
  for (int p = 0; p < 4; ++p) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(g[p * 3 + c], grey[p]);
  }

  const float samples[6] = {-1.0f, 0.5f, 2.0f, std::nanf(""), 1.0f / 255.0f, 0.999f};
  const Image from_float =
      display_frame(ImageView::packed(samples, 2, 1, {ChannelLayout::RGB, SampleType::F32}));
  const auto* f = reinterpret_cast<const std::uint8_t*>(from_float.storage.data());
  const std::uint8_t expected[6] = {0, 128, 255, 0, 1, 255};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(f[i], expected[i]) << i;

  const std::uint16_t deep[6] = {1, 2, 3, 65535, 256, 0};
  const Image kept =
      display_frame(ImageView::packed(deep, 2, 1, {ChannelLayout::RGB, SampleType::U16}));
  EXPECT_EQ(kept.format, (PixelFormat{ChannelLayout::RGB, SampleType::U16}));
  EXPECT_EQ(std::memcmp(kept.storage.data(), deep, sizeof(deep)), 0);
}

}  // namespace
}  // namespace gpuhist
