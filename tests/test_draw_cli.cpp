// `gpuhist draw` end to end: real files in, PNG pictures out, read back and
// compared with the CPU renderer; every option's error path.
#include <gtest/gtest.h>

#include <OpenImageIO/imageio.h>
#include <sys/stat.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/report.hpp"
#include "support/run_cli.hpp"
#include "vulkan/device_select.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
const std::string kCoffee = std::string(GPUHIST_SOURCE_DIR) + "/data/coffee.png";
const std::string kRocket = std::string(GPUHIST_SOURCE_DIR) + "/data/rocket.jpg";

// A PNG's pixels as RGBA (alpha 255), for comparison with a Picture.
Picture read_png(const fs::path& path) {
  auto in = OIIO::ImageInput::open(path.string());
  EXPECT_TRUE(in) << path;
  if (!in) return {};
  const auto& spec = in->spec();
  Picture p{static_cast<std::uint32_t>(spec.width), static_cast<std::uint32_t>(spec.height),
            std::vector<std::uint8_t>(std::size_t(spec.width) * spec.height * 4, 255)};
  EXPECT_EQ(spec.nchannels, 3);
  EXPECT_TRUE(in->read_image(0, 0, 0, 3, OIIO::TypeDesc::UINT8, p.rgba.data(), 4));
  return p;
}

// An 8-bit RGB image turned a quarter clockwise, as Exif orientation 6 asks it to be shown.
Image turned_clockwise(const Image& image) {
  const std::uint32_t w = image.width, h = image.height;
  Image turned = Image::allocate(h, w, image.format);
  for (std::uint32_t y = 0; y < w; ++y) {
    for (std::uint32_t x = 0; x < h; ++x) {
      std::memcpy(turned.storage.data() + y * turned.stride + x * 3,
                  image.storage.data() + (h - 1 - x) * image.stride + y * 3, 3);
    }
  }
  return turned;
}

// The RGB8 `image` as an EXIF orientation `exif` says it is shown, from the
// tag's definitions: displayed pixel (X, Y) is stored pixel (X, Y) (1),
// (W-1-X, Y) (2), (W-1-X, H-1-Y) (3), (X, H-1-Y) (4), (Y, X) (5),
// (Y, H-1-X) (6), (W-1-Y, H-1-X) (7), (W-1-Y, X) (8), W x H the stored size.
Image shown_by_exif(const Image& image, int exif) {
  const std::uint32_t w = image.width, h = image.height;
  const bool across = exif >= 5;
  Image shown = Image::allocate(across ? h : w, across ? w : h, image.format);
  for (std::uint32_t y = 0; y < shown.height; ++y) {
    for (std::uint32_t x = 0; x < shown.width; ++x) {
      const std::pair<std::uint32_t, std::uint32_t> from[] = {
          {x, y}, {w - 1 - x, y}, {w - 1 - x, h - 1 - y}, {x, h - 1 - y},
          {y, x}, {y, h - 1 - x}, {w - 1 - y, h - 1 - x}, {w - 1 - y, x}};
      const auto [sx, sy] = from[exif - 1];
      std::memcpy(shown.storage.data() + y * shown.stride + x * 3,
                  image.storage.data() + sy * image.stride + sx * 3, 3);
    }
  }
  return shown;
}

class DrawCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// The libraries a run of the command loaded, as the dynamic loader names them
// (LD_DEBUG=libs, written to files: the command silences its stderr while it decodes).
std::string loaded_libraries(const std::vector<std::string>& args, const fs::path& dir,
                             int& status) {
  const fs::path log = dir / "ld";
  fs::create_directories(log);
  status = test::run_cli(args, {"LD_DEBUG=libs", "LD_DEBUG_OUTPUT=" + (log / "ld").string()}).status;
  std::string text;
  for (const auto& entry : fs::directory_iterator(log)) {
    std::ifstream in(entry.path());
    text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  fs::remove_all(log);
  return text;
}

// Without a GPU the CPU draws by default (faster than a software device): no
// Vulkan driver is loaded for `draw` or `compute --plot`.
TEST_F(DrawCli, WithoutAGpuTheCpuDrawsAndNoDriverIsLoaded) {
  if (vk::gpu_device_node_present()) GTEST_SKIP() << "a GPU device node: auto opens its device";
  const Histogram h = Context::open("cpu").compute(load_image(kCoffee).view());
  const fs::path out = dir_ / "auto.png";
  int status = -1;
  const std::string drawn = loaded_libraries({"draw", kCoffee, "-o", out.string()}, dir_, status);
  ASSERT_EQ(status, 0);
  EXPECT_NE(drawn.find("libc.so.6"), std::string::npos) << "the loader logged nothing";
  // Mesa's drivers are libvulkan_NAME.so.
  EXPECT_EQ(drawn.find("/libvulkan_"), std::string::npos) << "draw loaded a Vulkan driver";
  EXPECT_TRUE(read_png(out) == draw_cpu(h, DrawOptions{}));
  const fs::path plot = dir_ / "plot.png";
  const std::string computed =
      loaded_libraries({"compute", kCoffee, "--plot", plot.string()}, dir_, status);
  ASSERT_EQ(status, 0);
  EXPECT_NE(computed.find("libc.so.6"), std::string::npos) << "the loader logged nothing";
  EXPECT_EQ(computed.find("/libvulkan_"), std::string::npos) << "--plot loaded a Vulkan driver";
  EXPECT_TRUE(fs::exists(plot));
}

TEST_F(DrawCli, PicturesEqualTheCpuRendererForBothRenderers) {
  const Histogram h = Context::open("cpu").compute(load_image(kCoffee).view(), {1000});
  for (const char* renderer : {"cpu", "gpu"}) {
    const fs::path out = dir_ / (std::string(renderer) + ".png");
    const auto r = test::run_cli({"draw", kCoffee, "-o", out.string(), "--renderer", renderer,
                                  "--bins", "1000", "--size", "500x120", "--channels", "rgbl",
                                  "--scale", "log", "--background", "#102030"});
    ASSERT_EQ(r.status, 0) << r.err;
    DrawOptions options;
    options.width = 500;
    options.height = 120;
    options.channels = 15;
    options.scale = ScaleMode::Log;
    options.background = 0x102030;
    EXPECT_TRUE(read_png(out) == draw_cpu(h, options)) << renderer;
  }
}

TEST_F(DrawCli, DefaultPictureAndSeveralImages) {
  const auto r = test::run_cli({"draw", kCoffee, kRocket, "-o", (dir_ / "h.png").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"h-coffee.png", "h-rocket.png"}) {
    const Picture p = read_png(dir_ / name);
    EXPECT_EQ(p.width, 256U) << name;
    EXPECT_EQ(p.height, 100U) << name;
  }
}

TEST_F(DrawCli, ReportHasImagePanelsAndLabels) {
  const fs::path out = dir_ / "report.png";
  const auto r = test::run_cli({"draw", kCoffee, "--report", "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const Picture p = read_png(out);
  EXPECT_EQ(p.width, 768U);
  // The image (400 rows) plus title, captions and panels.
  EXPECT_GT(p.height, 400U + kReportPanelHeight);
  // The title row holds light text pixels on the dark background.
  std::uint32_t light = 0;
  for (std::uint32_t y = 16; y < 40; ++y) {
    for (std::uint32_t x = 16; x < 300; ++x) light += p.rgba[(y * p.width + x) * 4] > 128 ? 1 : 0;
  }
  EXPECT_GT(light, 50U);
  // The bottom-left panel draws red bars for the coffee's many reds. Below the
  // panels: a caption line (14) and two margins (16).
  const std::uint32_t panel_bottom = p.height - 2 * 16 - 14 - 1;
  bool red = false;
  for (std::uint32_t x = 16; x < 16 + kReportPanelWidth; ++x) {
    const std::uint8_t* px = &p.rgba[(std::size_t{panel_bottom - 5} * p.width + x) * 4];
    red = red || (px[0] == 255 && px[1] == 0 && px[2] == 0);
  }
  EXPECT_TRUE(red);
  // A long name (a phone's export, with letters beyond ASCII) is shortened in its
  // middle so that the title, its size and format end inside the right margin.
  const fs::path long_name = dir_ /
                             "IMG_20240101_portrait_very_long_name_from_a_phone_export_"
                             "\u00e9dit\u00e9_version_final_2.png";
  fs::copy_file(kCoffee, long_name);
  const fs::path long_out = dir_ / "long.png";
  const auto l = test::run_cli({"draw", long_name.string(), "--report", "-o", long_out.string()});
  ASSERT_EQ(l.status, 0) << l.err;
  const Picture title = read_png(long_out);
  std::uint32_t right = 0, left = 0;
  for (std::uint32_t y = 12; y < 44; ++y) {
    for (std::uint32_t x = 0; x < 768; ++x) {
      const bool text = title.rgba[(y * title.width + x) * 4] > 128;
      (x >= 768 - 16 ? right : left) += text ? 1 : 0;
    }
  }
  EXPECT_GT(left, 500U);
  EXPECT_EQ(right, 0U);
}

// A photograph whose Exif orientation turns it (6: turn a quarter clockwise,
// as a phone's portrait shot is stored) is shown upright in its report: the
// report equals that of its pixels turned and stored upright, but for the
// title (the stored size and the name). The orientation is read as stored in
// JPEG (by gpuhist) and TIFF (by the image library), and through --isolate.
TEST_F(DrawCli, ReportShowsThePhotographUpright) {
  const Image stored = load_image(kRocket);
  ASSERT_EQ(stored.orientation, 1);
  save_image(dir_ / "upright.png", turned_clockwise(stored).view());
  const auto report = [&](const fs::path& file, std::vector<std::string> extra = {}) {
    const fs::path out = dir_ / (file.stem().string() + "-report.png");
    std::vector<std::string> args = {"draw", file.string(), "--report", "-o", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return read_png(out);
  };
  // Upright, the photograph is a portrait: its report is the taller.
  ASSERT_GT(report(dir_ / "upright.png").height, report(kRocket).height);
  for (const char* name : {"turned.jpg", "turned.tif"}) {
    // The stored pixels, losslessly (JPEG at quality 100 is not: its pixels are decoded again).
    const fs::path turned = dir_ / name;
    auto out = OIIO::ImageOutput::create(turned.string());
    OIIO::ImageSpec spec(static_cast<int>(stored.width), static_cast<int>(stored.height), 3,
                         OIIO::TypeDesc::UINT8);
    spec.attribute("Orientation", 6);
    ASSERT_TRUE(out && out->open(turned.string(), spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, stored.storage.data(), OIIO::AutoStride,
                                 static_cast<OIIO::stride_t>(stored.stride)) &&
                out->close());
    const Image read = load_image(turned);
    EXPECT_EQ(read.orientation, 6) << name;
    // Its own pixels, turned, against the report of the same pixels stored upright.
    const fs::path same = dir_ / (std::string("same-") + name + ".png");
    save_image(same, turned_clockwise(read).view());
    const Picture expected = report(same);
    for (const bool isolate : {false, true}) {
      const Picture got = report(turned, isolate ? std::vector<std::string>{"--isolate"}
                                                 : std::vector<std::string>{});
      ASSERT_EQ(got.width, expected.width) << name;
      ASSERT_EQ(got.height, expected.height) << name;
      // Below the title's band (its margin, text and gap: 48 rows).
      const std::size_t from = std::size_t{48} * got.width * 4;
      EXPECT_TRUE(std::equal(got.rgba.begin() + static_cast<std::ptrdiff_t>(from), got.rgba.end(),
                             expected.rgba.begin() + static_cast<std::ptrdiff_t>(from)))
          << name << (isolate ? " --isolate" : "");
    }
  }
}

// Every EXIF orientation (a TIFF's tag, the stored pixels lossless) shows the
// photograph as the tag defines it: the report equals that of the pixels
// stored as shown, below the title. (OpenImageIO 2.4's reorient() swaps 5
// and 7.)
TEST_F(DrawCli, ReportShowsEveryExifOrientation) {
  const Image stored = load_image(kRocket);
  // Each orientation tagged on a TIFF and already upright in a PNG, reported in one run.
  std::vector<std::string> args = {"draw"};
  for (int exif = 2; exif <= 8; ++exif) {
    const fs::path tagged = dir_ / ("tagged-" + std::to_string(exif) + ".tif");
    auto out = OIIO::ImageOutput::create(tagged.string());
    OIIO::ImageSpec spec(static_cast<int>(stored.width), static_cast<int>(stored.height), 3,
                         OIIO::TypeDesc::UINT8);
    spec.attribute("Orientation", exif);
    ASSERT_TRUE(out && out->open(tagged.string(), spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, stored.storage.data(), OIIO::AutoStride,
                                 static_cast<OIIO::stride_t>(stored.stride)) &&
                out->close());
    const fs::path upright = dir_ / ("upright-" + std::to_string(exif) + ".png");
    save_image(upright, shown_by_exif(stored, exif).view());
    args.insert(args.end(), {tagged.string(), upright.string()});
  }
  args.insert(args.end(), {"--report", "-o", (dir_ / "report.png").string()});
  const auto r = test::run_cli(args);
  ASSERT_EQ(r.status, 0) << r.err;
  for (int exif = 2; exif <= 8; ++exif) {
    const auto report = [&](const std::string& kind) {
      return read_png(dir_ / ("report-" + kind + "-" + std::to_string(exif) + ".png"));
    };
    const Picture got = report("tagged");
    const Picture expected = report("upright");
    ASSERT_EQ(got.width, expected.width) << exif;
    ASSERT_EQ(got.height, expected.height) << exif;
    const std::size_t from = std::size_t{48} * got.width * 4;  // below the title's band
    EXPECT_TRUE(std::equal(got.rgba.begin() + static_cast<std::ptrdiff_t>(from), got.rgba.end(),
                           expected.rgba.begin() + static_cast<std::ptrdiff_t>(from)))
        << "orientation " << exif;
  }
}

TEST_F(DrawCli, ComputePlotIsTheReport) {
  const fs::path plot = dir_ / "plot.png";
  const fs::path report = dir_ / "report.png";
  const auto a = test::run_cli({"compute", kCoffee, "--plot", plot.string(), "--format", "json"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.out.find("\"histograms\""), std::string::npos);
  const auto b = test::run_cli({"draw", kCoffee, "--report", "-o", report.string()});
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_TRUE(read_png(plot) == read_png(report));
}

// Pictures of images whose histograms are known, drawn from real PNG files.
class KnownImages : public DrawCli {
 protected:
  // Writes an 8-bit RGB PNG of `width` x `height` pixels from a colour function.
  template <typename Colour>
  fs::path write_png(const std::string& name, int width, int height, Colour colour) {
    std::vector<std::uint8_t> rgb(std::size_t(width) * height * 3);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const std::array<std::uint8_t, 3> c = colour(x, y);
        std::copy(c.begin(), c.end(), rgb.begin() + (std::ptrdiff_t(y) * width + x) * 3);
      }
    }
    const fs::path path = dir_ / name;
    auto out = OIIO::ImageOutput::create(path.string());
    EXPECT_TRUE(out &&
                out->open(path.string(), OIIO::ImageSpec(width, height, 3, OIIO::TypeDesc::UINT8)));
    EXPECT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, rgb.data()));
    out->close();
    return path;
  }
  // Draws with the CLI and returns each column's bar height (non-background rows from the bottom).
  std::vector<std::uint32_t> heights(const fs::path& image, const std::vector<std::string>& extra) {
    const fs::path out = dir_ / (image.stem().string() + "-hist.png");
    std::vector<std::string> args = {"draw", image.string(), "-o", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    const Picture p = read_png(out);
    std::vector<std::uint32_t> h(p.width, 0);
    for (std::uint32_t x = 0; x < p.width; ++x) {
      while (h[x] < p.height) {
        const std::uint8_t* px = &p.rgba[(std::size_t{p.height - 1 - h[x]} * p.width + x) * 4];
        if (px[0] == 0x33 && px[1] == 0x33 && px[2] == 0x33) break;
        ++h[x];
      }
    }
    return h;
  }
};

TEST_F(KnownImages, OneColourDrawsThreeFullBars) {
  const fs::path image = write_png("one.png", 40, 30, [](int, int) {
    return std::array<std::uint8_t, 3>{200, 100, 50};
  });
  // ("seed": clip's name in 0.1.0, still taken.)
  for (const char* scale : {"clip", "max", "log", "seed"}) {
    const auto h = heights(image, {"--scale", scale});
    for (std::uint32_t x = 0; x < 256; ++x) {
      EXPECT_EQ(h[x], (x == 200 || x == 100 || x == 50) ? 100U : 0U) << scale << " column " << x;
    }
  }
}

// A 40x30 image: 22 rows (880 pixels) of red 10 and 8 rows (320 pixels) of
// red 20, green and blue 0, 256 bins. max scale: heights 1 and 320/880 of 100
// rows -> 100 and 36 rows (row centres below 36.4). clip scale: max(1/880,
// 0.2 * 256 / 1200) = 0.0427 per pixel, so both bars pass the top.
TEST_F(KnownImages, TwoColoursFollowTheScaleFormulas) {
  const fs::path image = write_png("two.png", 40, 30, [](int, int y) {
    return std::array<std::uint8_t, 3>{static_cast<std::uint8_t>(y < 22 ? 10 : 20), 0, 0};
  });
  const auto max = heights(image, {"--scale", "max", "--channels", "r"});
  EXPECT_EQ(max[10], 100U);
  EXPECT_EQ(max[20], 36U);
  EXPECT_EQ(max[30], 0U);
  const auto clipped = heights(image, {"--channels", "r"});
  EXPECT_EQ(clipped[10], 100U);
  EXPECT_EQ(clipped[20], 100U);
}

// A full 0..255 ramp: every value once per row, so every column has a bar of
// the same height; with 512 columns each bin is two columns wide.
TEST_F(KnownImages, RampFillsEveryColumn) {
  const fs::path image = write_png("ramp.png", 256, 4, [](int x, int) {
    const auto v = static_cast<std::uint8_t>(x);
    return std::array<std::uint8_t, 3>{v, v, v};
  });
  const auto h = heights(image, {"--size", "512x64", "--channels", "l"});
  ASSERT_EQ(h.size(), 512U);
  for (std::uint32_t x = 0; x < 512; ++x) EXPECT_EQ(h[x], 64U) << "column " << x;
}

TEST_F(DrawCli, ErrorsHaveOneLineAndTheirStatus) {
  const std::string out = (dir_ / "o.png").string();
  const std::pair<std::vector<std::string>, int> cases[] = {
      {{"draw", kCoffee, "-o", out, "--size", "0x10"}, 2},
      {{"draw", kCoffee, "-o", out, "--size", "20000x10"}, 2},
      {{"draw", kCoffee, "-o", out, "--size", "wide"}, 2},
      {{"draw", kCoffee, "-o", out, "--size", "-4294967295x100"}, 2},  // not wrapped to 1x100
      {{"draw", kCoffee, "-o", out, "--channels", "rgbx"}, 2},
      {{"draw", kCoffee, "-o", out, "--scale", "linear"}, 2},
      {{"draw", kCoffee, "-o", out, "--renderer", "metal"}, 2},
      {{"draw", kCoffee, "-o", out, "--background", "red"}, 2},
      {{"draw", kCoffee, "-o", out, "--bins", "0"}, 2},
      {{"draw", kCoffee}, 2},
      {{"draw", kCoffee, "-o", out, "--device", "cpu", "--renderer", "gpu"}, 2},
      {{"draw", (dir_ / "missing.png").string(), "-o", out}, 1},
      {{"draw", kCoffee, "-o", (dir_ / "no/such/dir/o.png").string()}, 4},
      // A missing folder is said once, not once per input.
      {{"draw", kCoffee, kRocket, "-o", (dir_ / "no/such/dir/o.png").string()}, 4},
      {{"compute", kCoffee, kRocket, "--plot", (dir_ / "no/p.png").string()}, 4},
      {{"equalize", kCoffee, kRocket, "-o", (dir_ / "o.png/e.png").string()}, 4},
      // A format images are read from but not written to, and no format at all.
      {{"draw", kCoffee, "-o", (dir_ / "o.psd").string()}, 2},
      {{"draw", kCoffee, "-o", (dir_ / "o.pbm").string()}, 2},  // one bit a pixel
      {{"draw", kCoffee, "-o", (dir_ / "o.txt").string()}, 2},
  };
  for (const auto& [args, status] : cases) {
    const auto r = test::run_cli(args);
    EXPECT_EQ(r.status, status) << args.back() << ": " << r.err;
    EXPECT_EQ(r.err.rfind("gpuhist: error: ", 0), 0U) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_NE(test::run_cli({"draw", kCoffee, "-o", (dir_ / "o.psd").string()})
                .err.find("read from '.psd' files but cannot be written"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "o.psd"));
  EXPECT_NE(test::run_cli({"draw", kCoffee, "-o", (dir_ / "o.pbm").string()})
                .err.find("a '.pbm' file holds a bit a pixel, which is not written"),
            std::string::npos);
  // Past "--" every argument is a file: -o there is one, and the output is missing.
  const auto after = test::run_cli({"draw", "--", kCoffee, "-o", out});
  EXPECT_EQ(after.status, 2);
  EXPECT_EQ(after.err, "gpuhist: error: --output is required (see gpuhist draw --help)\n");
  const auto before = test::run_cli({"draw", "-o", out, "--", kCoffee});
  EXPECT_EQ(before.status, 0) << before.err;
}

// A target that is not a regular file and names no format (/dev/null, a
// pipe) takes PNG, written in place.
TEST_F(DrawCli, ATargetThatIsNotAFileTakesPng) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string piped;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    piped.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  const auto r = test::run_cli({"draw", kCoffee, "-o", fifo.string(), "--device", "cpu"});
  reader.join();
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_GT(piped.size(), 8U);
  EXPECT_EQ(piped.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const fs::path file = dir_ / "h.png";
  ASSERT_EQ(test::run_cli({"draw", kCoffee, "-o", file.string(), "--device", "cpu"}).status, 0);
  EXPECT_EQ(piped, test::file_text(file));
  const auto nothing = test::run_cli({"equalize", kCoffee, "-o", "/dev/null", "--device", "cpu"});
  EXPECT_EQ(nothing.status, 0) << nothing.err;
  // Several outputs are files to be made (/dev/null-coffee): they need a format.
  const auto several =
      test::run_cli({"equalize", kCoffee, kRocket, "-o", "/dev/null", "--device", "cpu"});
  EXPECT_EQ(several.status, 2);
  test::expect_one_line_error(several, "/dev/null: no extension names an image format");
  // "-" is no file: said so, with the pipe's name.
  const auto dash = test::run_cli({"draw", kCoffee, "-o", "-", "--device", "cpu"});
  EXPECT_EQ(dash.status, 2);
  test::expect_one_line_error(dash, "-o -: an image goes to a file");
}

// A picture is colour: a .pgm (grey) is refused where the PNM writer wrote a
// PPM under that name; a JPEG keeps the bars' colour whole (4:4:4: 4:2:0
// smeared their edges by up to 255 levels). The report lays out its own size
// and channels: giving them with it is a usage error, not ignored.
TEST_F(DrawCli, PictureFormatsAndTheReportsOwnLayout) {
  const fs::path pgm = dir_ / "h.pgm";
  const auto grey = test::run_cli({"draw", kCoffee, "-o", pgm.string(), "--device", "cpu"});
  EXPECT_EQ(grey.status, 4);
  test::expect_one_line_error(grey, "a .pgm file holds grey images (.ppm holds colour)");
  EXPECT_FALSE(fs::exists(pgm));
  const fs::path png = dir_ / "h.png", jpg = dir_ / "h.jpg";
  ASSERT_EQ(test::run_cli({"draw", kCoffee, "-o", png.string(), "--device", "cpu"}).status, 0);
  ASSERT_EQ(test::run_cli({"draw", kCoffee, "-o", jpg.string(), "--device", "cpu"}).status, 0);
  const Image exact = load_image(png);
  const Image lossy = load_image(jpg);
  ASSERT_EQ(lossy.width, exact.width);
  int worst = 0;
  for (std::uint32_t y = 0; y < exact.height; ++y) {
    const auto* a = reinterpret_cast<const unsigned char*>(exact.view().row(y));
    const auto* b = reinterpret_cast<const unsigned char*>(lossy.view().row(y));
    for (std::uint32_t i = 0; i < exact.width * 3; ++i)
      worst = std::max(worst, std::abs(a[i] - b[i]));
  }
  EXPECT_LE(worst, 16);
  // TIFF and WebP pictures are lossless (the JPEG writer's settings are the
  // JPEG's alone; the WebP writer's default is lossy).
  for (const char* name : {"h.tif", "h.webp"}) {
    const fs::path picture = dir_ / name;
    ASSERT_EQ(test::run_cli({"draw", kCoffee, "-o", picture.string(), "--device", "cpu"}).status,
              0);
    const Image read = load_image(picture);
    ASSERT_EQ(read.format, exact.format) << name;
    for (std::uint32_t y = 0; y < exact.height; ++y) {
      ASSERT_EQ(std::memcmp(read.view().row(y), exact.view().row(y), exact.width * 3), 0)
          << name << " row " << y;
    }
  }
  for (const char* option : {"--size", "--channels"}) {
    const auto r = test::run_cli({"draw", kCoffee, "--report", option,
                                  std::string(option) == "--size" ? "100x50" : "l", "-o",
                                  (dir_ / "r.png").string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 2) << option;
    test::expect_one_line_error(r, option);
  }
}

}  // namespace
}  // namespace gpuhist
