// The adjustment verbs end to end: real files in, files out whose pixels are
// the library's tables applied to the input, on the CPU and on the GPU.
#include <gtest/gtest.h>

#include <OpenImageIO/imageio.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gpuhist/adjust.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using test::expect_one_line_error;
using test::run_cli;

const std::string kCoffee = std::string(GPUHIST_SOURCE_DIR) + "/data/coffee.png";
const std::string kRocket = std::string(GPUHIST_SOURCE_DIR) + "/data/rocket.jpg";

std::vector<std::byte> bytes_of(const Image& image) { return test::pixel_bytes_of(image.view()); }

// What the library makes of `path` with `make`, applied on the CPU.
template <typename MakeLut>
std::vector<std::byte> expected(const std::string& path, const MakeLut& make) {
  const Image image = load_image(path, LoadOptions{kDefaultMaxPixels, true});
  const Histogram h = Context::open("cpu").compute(image.view(), tone_options(image.format),
                                                   RunOptions{Strategy::CpuReference});
  const Lut lut = make(image, h);
  std::vector<std::byte> out(image.view().pixel_count() *
                             pixel_bytes(lut_output_format(image.format, lut)));
  apply_lut_cpu(image.view(), lut, out);
  return out;
}

class AdjustCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(AdjustCli, EqualizeOnTheCpuAndTheGpuWritesTheLibrarysPixels) {
  const auto want = expected(kCoffee, [](const Image& image, const Histogram& h) {
    return equalize_lut(h, image.format, ToneChannels::Luminance);
  });
  for (const char* apply : {"cpu", "gpu"}) {
    const std::string out = path("eq.png");
    const auto r = run_cli({"equalize", kCoffee, "-o", out, "--apply", apply});
    ASSERT_EQ(r.status, 0) << r.err;
    const Image written = load_image(out);
    EXPECT_EQ(written.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
    EXPECT_EQ(bytes_of(written), want) << apply;
  }
  const auto each = expected(kCoffee, [](const Image& image, const Histogram& h) {
    return equalize_lut(h, image.format, ToneChannels::Each);
  });
  ASSERT_EQ(run_cli({"equalize", kCoffee, "-o", path("each.png"), "--channels", "each"}).status, 0);
  EXPECT_EQ(bytes_of(load_image(path("each.png"))), each);
  EXPECT_NE(each, want);
  // An SGI file holds the same pixels, and the same bytes every time (its
  // writer leaves stack contents in its header's name field; gpuhist clears it).
  for (const char* name : {"eq1.sgi", "eq2.sgi"}) {
    ASSERT_EQ(run_cli({"equalize", kCoffee, "-o", path(name), "--device", "cpu"}).status, 0);
  }
  EXPECT_EQ(bytes_of(load_image(path("eq1.sgi"), LoadOptions{.formats = FormatSet::All})), want);
  const std::string sgi = test::file_text(path("eq1.sgi"));
  EXPECT_EQ(sgi, test::file_text(path("eq2.sgi")));
  EXPECT_EQ(sgi.substr(24, 80), std::string(80, '\0'));
}

// An image of one colour keeps it: the table of its one luminance value is
// the identity, applied to red, green and blue alike (8- and 16-bit, on the
// CPU and the GPU).
TEST_F(AdjustCli, EqualizeKeepsAnImageOfOneColour) {
  for (const PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGB, SampleType::U16}}) {
    Image one = Image::allocate(30, 20, format);
    const std::uint16_t colour[] = {200, 50, 100};
    for (std::uint32_t y = 0; y < one.height; ++y) {
      for (std::uint32_t x = 0; x < one.width; ++x) {
        for (std::size_t c = 0; c < 3; ++c) {
          const std::uint16_t v = format.sample == SampleType::U8 ? colour[c] : colour[c] * 100;
          std::byte* at =
              one.storage.data() + y * one.stride + (x * 3 + c) * pixel_bytes(format) / 3;
          if (format.sample == SampleType::U8) {
            *at = static_cast<std::byte>(v);
          } else {
            std::memcpy(at, &v, 2);
          }
        }
      }
    }
    save_image(path("one.png"), one.view());
    for (const char* apply : {"cpu", "gpu"}) {
      const auto r =
          run_cli({"equalize", path("one.png"), "-o", path("one-eq.png"), "--apply", apply});
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(bytes_of(load_image(path("one-eq.png"))), bytes_of(load_image(path("one.png"))))
          << to_string(format) << " " << apply;
    }
  }
}

TEST_F(AdjustCli, ClaheWritesTheLibrarysPixels) {
  const Image image = load_image(kRocket);
  ClaheOptions options;
  options.tiles_x = 6;
  options.tiles_y = 4;
  options.clip_limit = 3.0;
  options.channels = ToneChannels::Each;
  std::vector<std::byte> want(image.view().pixel_count() * pixel_bytes(image.format));
  clahe_cpu(image.view(), options, want);
  for (const char* apply : {"cpu", "gpu"}) {
    const std::string out = path("clahe.png");
    const auto r = run_cli({"clahe", kRocket, "-o", out, "--tiles", "6x4", "--clip-limit", "3",
                            "--channels", "each", "--apply", apply});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(bytes_of(load_image(out)), want) << apply;
  }
}

// A 16-bit image's tiles keep 65536 values each: more tiles than the device's
// shaders can read are a usage error naming its limit and the most tiles that
// fit; the CPU counts them.
TEST_F(AdjustCli, ClaheTablesPastTheDevicesLimitAreRefusedNamingIt) {
  const Context gpu = Context::open("auto");
  const DeviceInfo* device = gpu.device();
  if (device == nullptr) GTEST_SKIP() << "no Vulkan device";
  const std::uint64_t limit = device->max_storage_buffer_range;
  // The most tiles of 65536 16-bit values under the limit, and one tile more.
  const std::uint64_t most = limit / (65536 * 2);
  if (most >= 2048) GTEST_SKIP() << "this device reads every table the CLI allows";
  // Tiles across are 256 at most: rows of them past `most`.
  const std::uint64_t across = std::min<std::uint64_t>(256, most + 1);
  const std::uint64_t down = most / across + 1;
  const test::TestImage source =
      test::make_image({ChannelLayout::Grey, SampleType::U16}, 40, 30, test::Content::Random, 5);
  const std::string in = path("deep.png");
  save_image(in, source.view);
  const std::string out = path("clahe.png");
  const std::string grid = std::to_string(across) + "x" + std::to_string(down);
  const auto r = run_cli({"clahe", in, "-o", out, "--tiles", grid, "--apply", "gpu"});
  EXPECT_EQ(r.status, 2) << r.err;
  expect_one_line_error(r, "the CLAHE tables of " + grid + " tiles (");
  EXPECT_NE(r.err.find(" bytes) exceed the " + std::to_string(limit) +
                       " bytes the device's shaders can read ("),
            std::string::npos)
      << r.err;
  // The image's rows and columns take their share: fewer tiles than `most` fit.
  const std::size_t at = r.err.find(" tiles at most of this image there");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::size_t from = r.err.rfind('(', at) + 1;
  const std::uint64_t named = std::stoull(r.err.substr(from, at - from));
  EXPECT_LE(named, most);
  EXPECT_GE(named + 1, most);
  EXPECT_FALSE(fs::exists(out));
  const auto cpu = run_cli({"clahe", in, "-o", out, "--tiles", grid, "--apply", "cpu"});
  EXPECT_EQ(cpu.status, 0) << cpu.err;
}

TEST_F(AdjustCli, SixteenBitsAndAlphaSurvive) {
  // A 16-bit RGBA PNG: the output keeps 16 bits and the alpha samples.
  const test::TestImage source =
      test::make_image({ChannelLayout::RGBA, SampleType::U16}, 67, 9, test::Content::Random, 7);
  const std::string in = path("deep.png");
  save_image(in, source.view);
  const std::string out = path("stretched.png");
  const auto r = run_cli(
      {"autolevel", in, "-o", out, "--clip", "2,3", "--channels", "each", "--apply", "gpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Image written = load_image(out, LoadOptions{kDefaultMaxPixels, true});
  EXPECT_EQ(written.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U16}));
  EXPECT_EQ(bytes_of(written), expected(in, [](const Image& image, const Histogram& h) {
              return stretch_lut(h, image.format, ToneChannels::Each, 2.0, 3.0);
            }));
  const auto* alpha_in = static_cast<const std::uint16_t*>(source.view.data);
  const auto* alpha_out = reinterpret_cast<const std::uint16_t*>(written.storage.data());
  for (std::size_t p = 0; p < 67 * 9; ++p) ASSERT_EQ(alpha_out[p * 4 + 3], alpha_in[p * 4 + 3]);
}

TEST_F(AdjustCli, ThresholdPrintsItsValueAndWritesGrey) {
  for (const char* method : {"otsu", "triangle", "120"}) {
    const std::string out = path("binary.png");
    const auto r = run_cli({"threshold", kRocket, "-o", out, "--method", method});
    ASSERT_EQ(r.status, 0) << r.err;
    std::int32_t t = 0;
    const auto want = expected(kRocket, [&](const Image& image, const Histogram& h) {
      const auto counts = h.counts(Channel::Luminance);
      t = std::string(method) == "otsu"       ? otsu_threshold(counts)
          : std::string(method) == "triangle" ? triangle_threshold(counts)
                                              : 120;
      return threshold_lut(image.format, t);
    });
    EXPECT_EQ(r.out, kRocket + ": threshold " + std::to_string(t) + " (" + method + ")\n");
    const Image written = load_image(out);
    EXPECT_EQ(written.format, (PixelFormat{ChannelLayout::Grey, SampleType::U8}));
    EXPECT_EQ(bytes_of(written), want) << method;
  }
  // A picture that could not be written has no level on stdout: a row there is a file done.
  // (A full device: found only when the picture, made, is written.)
  const auto unwritten = run_cli({"threshold", kRocket, "-o", "/dev/full", "--method", "120"});
  EXPECT_EQ(unwritten.status, 4) << unwritten.err;
  EXPECT_EQ(unwritten.out, "");
}

// A file of several pages is adjusted by its first, which alone is written: said of
// the input (the first is counted) and of the output (it holds that page alone).
TEST_F(AdjustCli, AFileOfPagesIsAdjustedByItsFirst) {
  ASSERT_EQ(std::system(("oiiotool --pattern constant:color=1,0,0 16x16 3 --pattern "
                         "constant:color=0,1,0 16x16 3 --siappend -d uint8 -o '" +
                         path("pages.tif") + "'")
                            .c_str()),
            0);
  const auto r = run_cli({"equalize", path("pages.tif"), "-o", path("first.tif")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "gpuhist: warning: " + path("pages.tif") +
                       ": the file holds more than one page (or frame); the first is counted\n"
                       "gpuhist: warning: " +
                       path("first.tif") + ": holds the first page (or frame) alone, adjusted\n");
  EXPECT_FALSE(load_image(path("first.tif")).more_pages);
}

TEST_F(AdjustCli, MatchToAReference) {
  const std::string out = path("matched.png");
  const auto r =
      run_cli({"match", kCoffee, "--reference", kRocket, "-o", out, "--channels", "each"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Image reference = load_image(kRocket);
  const Histogram target =
      Context::open("cpu").compute(reference.view(), tone_options(reference.format));
  EXPECT_EQ(bytes_of(load_image(out)),
            expected(kCoffee, [&](const Image& image, const Histogram& h) {
              return match_lut(h, target, image.format, ToneChannels::Each);
            }));
  // The matched image's histogram is much closer to the reference's than before.
  const auto before = run_cli({kCoffee, "--compare", kRocket, "--format", "json"});
  const auto after = run_cli({out, "--compare", kRocket, "--format", "json"});
  ASSERT_EQ(before.status, 0);
  ASSERT_EQ(after.status, 0);
  const auto emd = [](const std::string& json_text) {
    const auto at = json_text.find("\"emd\":", json_text.find("\"red\":{\"correlation\""));
    return std::stod(json_text.substr(at + 6));
  };
  EXPECT_LT(emd(after.out), 0.1 * emd(before.out));
}

TEST_F(AdjustCli, ManyFilesAndFolders) {
  fs::create_directories(dir_ / "set/sub");
  fs::copy_file(kCoffee, dir_ / "set/coffee.png");
  fs::copy_file(kRocket, dir_ / "set/sub/rocket.jpg");
  std::ofstream(dir_ / "set/broken.png") << "not a picture";
  const auto r = run_cli({"autolevel", (dir_ / "set").string(), "-o", path("out.png")});
  EXPECT_EQ(r.status, 1);  // the broken file
  // Its error, and the warning that the JPEG's camera metadata does not go into a PNG.
  EXPECT_EQ(r.err.rfind("gpuhist: error: " + (dir_ / "set/broken.png").string() + ": ", 0), 0U)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_NE(r.err.find("gpuhist: warning: " + path("out-rocket.png") + ": the source's metadata"),
            std::string::npos)
      << r.err;
  for (const auto& [source, name] :
       {std::pair{kCoffee, "out-coffee.png"}, std::pair{kRocket, "out-rocket.png"}}) {
    ASSERT_TRUE(fs::exists(dir_ / name)) << name;
    EXPECT_EQ(bytes_of(load_image(path(name))),
              expected(source,
                       [](const Image& image, const Histogram& h) {
                         return stretch_lut(h, image.format, ToneChannels::Luminance, 0.5, 0.5);
                       }))
        << name;
  }
}

TEST_F(AdjustCli, BadRequestsExitWithTheirStatus) {
  const std::string out = path("x.png");
  const std::pair<std::vector<std::string>, std::string> usage[] = {
      {{"equalize", kCoffee, "-o", out, "--channels", "hue"}, "hue"},
      {{"autolevel", kCoffee, "-o", out, "--clip", "51"}, "--clip"},
      {{"autolevel", kCoffee, "-o", out, "--clip", "1,2,3"}, "--clip"},
      {{"threshold", kCoffee, "-o", out, "--method", "mean"}, "mean"},
      {{"equalize", kCoffee, "-o", out, "--apply", "tpu"}, "tpu"},
      {{"equalize", kCoffee, "-o", out, "--device", "cpu", "--apply", "gpu"}, "--apply gpu"},
      // The words cpu and auto in any case, as the library takes them.
      {{"equalize", kCoffee, "-o", out, "--device", "CPU", "--apply", "gpu"},
       "--apply gpu needs a Vulkan device, but --device cpu was given"},
      {{"match", kCoffee, "-o", out}, "reference"},
      {{"equalize", kCoffee}, "output"},
      {{"clahe", kCoffee, "-o", out, "--tiles", "8"}, "--tiles"},
      {{"clahe", kCoffee, "-o", out, "--tiles", "300x2"}, "--tiles"},
      {{"clahe", kCoffee, "-o", out, "--clip-limit", "-1"}, "--clip-limit"},
  };
  for (const auto& [args, needle] : usage) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.err;
    expect_one_line_error(r, needle);
  }
  // The reference is an input no output replaces.
  fs::copy_file(kRocket, path("ref.jpg"));
  const auto onto = run_cli(
      {"match", kCoffee, "--reference", path("ref.jpg"), "-o", path("ref.jpg"), "--device", "cpu"});
  EXPECT_EQ(onto.status, 2) << onto.err;
  expect_one_line_error(onto, path("ref.jpg") + ": the output is one of the inputs (" +
                                  path("ref.jpg") + "), the --reference image");
  EXPECT_EQ(test::file_text(path("ref.jpg")), test::file_text(kRocket));
  // A float image cannot be adjusted; a missing input or reference is an input error.
  const test::TestImage hdr =
      test::make_image({ChannelLayout::RGB, SampleType::F32}, 4, 4, test::Content::Random, 2);
  {
    auto file = OIIO::ImageOutput::create(path("hdr.exr"));
    ASSERT_TRUE(file);
    ASSERT_TRUE(file->open(path("hdr.exr"), OIIO::ImageSpec(4, 4, 3, OIIO::TypeDesc::FLOAT)));
    ASSERT_TRUE(file->write_image(OIIO::TypeDesc::FLOAT, hdr.view.data));
    file->close();
  }
  const std::pair<std::vector<std::string>, std::string> input[] = {
      {{"equalize", path("hdr.exr"), "-o", out}, "8- or 16-bit"},
      {{"equalize", path("missing.png"), "-o", out}, "no such file"},
      {{"match", kCoffee, "--reference", path("missing.png"), "-o", out},
       "gpuhist: error: --reference " + path("missing.png") + ": no such file"},
  };
  for (const auto& [args, needle] : input) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 1) << args[1] << ": " << r.err;
    expect_one_line_error(r, needle);
  }
  EXPECT_FALSE(fs::exists(out));
  const auto unwritable = run_cli({"equalize", kCoffee, "-o", path("no/such/dir/x.png")});
  EXPECT_EQ(unwritable.status, 4);
  expect_one_line_error(unwritable, "x.png");
  // A reference of another bit depth.
  const test::TestImage deep =
      test::make_image({ChannelLayout::RGB, SampleType::U16}, 8, 8, test::Content::Random, 3);
  save_image(path("deep.png"), deep.view);
  const auto depth = run_cli({"match", kCoffee, "--reference", path("deep.png"), "-o", out});
  EXPECT_EQ(depth.status, 2);
  expect_one_line_error(depth, kCoffee + ": rgb8 pixels, and the reference " + path("deep.png") +
                                   " has rgb16: match needs a reference of the image's bit depth");
}

// What the output's format cannot hold of the adjusted image is said in a
// warning, and the rest written: 16-bit samples as 8 bits (JPEG, PNM) or as
// half floats (OpenEXR), alpha left out (JPEG, PNM, which refused four
// channels outright); a threshold written lossily. The PNG holds it all, and
// a PNM 16-bit samples (written by gpuhist: the library's writer narrows them).
TEST_F(AdjustCli, WhatTheOutputFormatCannotHoldIsAWarning) {
  const test::TestImage rgba =
      test::make_image({ChannelLayout::RGBA, SampleType::U16}, 40, 30, test::Content::Random, 9);
  save_image(path("rgba16.png"), rgba.view);
  const auto whole = run_cli({"equalize", path("rgba16.png"), "-o", path("eq.png")});
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(whole.err, "");
  const Image full = load_image(path("eq.png"), LoadOptions{.alpha = true});
  ASSERT_EQ(full.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U16}));
  const std::pair<const char*, const char*> narrowed[] = {
      {"eq.ppm", "a PNM file holds no alpha: the alpha is left out\n"},
      {"eq.jpg",
       "a JPEG file holds 8-bit samples: the 16-bit samples are scaled to 8 bits; it holds no "
       "alpha: the alpha is left out\n"},
      {"eq.exr",
       "an OpenEXR file holds these samples as half floats, whose 11 significant bits do not "
       "keep every 16-bit value\n"},
      {"eq.hdr",
       "a Radiance HDR file holds each colour as three 8-bit mantissas sharing an exponent "
       "(RGBE): the samples are not kept exactly; it holds no alpha: the alpha is left out\n"},
  };
  for (const auto& [name, said] : narrowed) {
    const auto r = run_cli({"equalize", path("rgba16.png"), "-o", path(name)});
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_EQ(r.err, "gpuhist: warning: " + path(name) + ": " + said);
  }
  // A grey image is adjusted without its alpha: said, whatever the output holds.
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=16x8 -frames:v 1 -pix_fmt ya8 '" +
                           path("ya.png") + "'"));
  const auto grey_alpha = run_cli({"equalize", path("ya.png"), "-o", path("ya-eq.png")});
  EXPECT_EQ(grey_alpha.status, 0) << grey_alpha.err;
  EXPECT_EQ(grey_alpha.err, "gpuhist: warning: " + path("ya-eq.png") +
                                ": the source's alpha is not written (a grey image's alpha is "
                                "not kept)\n");
  // A .pgm file holds grey: colour is refused when it would be written (a
  // threshold's grey is written), where the PNM writer wrote a PPM under that name.
  const auto pgm = run_cli({"equalize", path("rgba16.png"), "-o", path("eq.pgm")});
  EXPECT_EQ(pgm.status, 4);
  expect_one_line_error(pgm, "a .pgm file holds grey images (.ppm holds colour)");
  EXPECT_FALSE(fs::exists(path("eq.pgm")));
  const auto grey_pgm = run_cli({"threshold", path("rgba16.png"), "-o", path("t.pgm")});
  EXPECT_EQ(grey_pgm.status, 0) << grey_pgm.err;
  EXPECT_EQ(load_image(path("t.pgm")).format.layout, ChannelLayout::Grey);
  // A grey image goes to Radiance HDR as RGB, which its writer takes alone.
  const test::TestImage grey =
      test::make_image({ChannelLayout::Grey, SampleType::U16}, 20, 10, test::Content::Random, 4);
  save_image(path("grey16.png"), grey.view);
  const auto hdr = run_cli({"equalize", path("grey16.png"), "-o", path("grey.hdr")});
  EXPECT_EQ(hdr.status, 0) << hdr.err;
  EXPECT_NE(hdr.err.find("(RGBE): the samples are not kept exactly"), std::string::npos) << hdr.err;
  EXPECT_EQ(load_image(path("grey.hdr")).format.layout, ChannelLayout::RGB);
  // The PNM's colour samples are the PNG's, all 16 bits of them (the library's
  // writer would write them 8 bits deep), and so are a grey PGM's.
  const Image ppm = load_image(path("eq.ppm"));
  ASSERT_EQ(ppm.format, (PixelFormat{ChannelLayout::RGB, SampleType::U16}));
  for (std::uint32_t y = 0; y < ppm.height; ++y) {
    const auto* wide =
        reinterpret_cast<const std::uint16_t*>(full.storage.data() + y * full.stride);
    const auto* read = reinterpret_cast<const std::uint16_t*>(ppm.storage.data() + y * ppm.stride);
    for (std::uint32_t x = 0; x < ppm.width; ++x) {
      for (std::uint32_t c = 0; c < 3; ++c) {
        ASSERT_EQ(read[x * 3 + c], wide[x * 4 + c]) << x << "," << y << " channel " << c;
      }
    }
  }
  const auto deep_pgm = run_cli({"equalize", path("grey16.png"), "-o", path("grey.pgm")});
  EXPECT_EQ(deep_pgm.status, 0) << deep_pgm.err;
  EXPECT_EQ(deep_pgm.err, "");
  const auto png_again = run_cli({"equalize", path("grey16.png"), "-o", path("grey_eq.png")});
  EXPECT_EQ(png_again.status, 0) << png_again.err;
  EXPECT_EQ(bytes_of(load_image(path("grey.pgm"))), bytes_of(load_image(path("grey_eq.png"))));
  EXPECT_EQ(test::file_text(path("grey.pgm")).substr(0, 15), "P5\n20 10\n65535\n");
  const auto lossy = run_cli({"threshold", kCoffee, "-o", path("t.jpg")});
  EXPECT_EQ(lossy.status, 0) << lossy.err;
  EXPECT_EQ(lossy.err, "gpuhist: warning: " + path("t.jpg") +
                           ": the format is lossy: the thresholded image's two levels are not "
                           "kept exact (.png or .tif keeps them)\n");
  const auto exact = run_cli({"threshold", kCoffee, "-o", path("t.png")});
  EXPECT_EQ(exact.status, 0) << exact.err;
  EXPECT_EQ(exact.err, "");
}

// WebP and GIF writers take colour alone (OpenImageIO's WebP writer crashed
// on a grey image it refused): a grey image is written as RGB, the same
// picture. A GIF's palette of 256 colours keeps a thresholded image's two
// levels; where it changes pixels, the warning counts them, as read back.
TEST_F(AdjustCli, GreyImagesGoToWebpAndGifAndAGifsPaletteIsSaid) {
  const test::TestImage grey =
      test::make_image({ChannelLayout::Grey, SampleType::U8}, 60, 40, test::Content::Random, 5);
  save_image(path("grey.png"), grey.view);
  for (const char* kind : {"equalize", "clahe", "autolevel"}) {
    const auto r = run_cli({kind, path("grey.png"), "-o", path("grey.webp"), "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << kind << ": " << r.err;
    const Image webp = load_image(path("grey.webp"));
    EXPECT_EQ(webp.width, 60U);
    EXPECT_EQ(webp.format.layout, ChannelLayout::RGB) << kind;
  }
  EXPECT_FALSE(fs::exists(path(".grey.webp")));
  // Two levels: exact in a GIF, no warning.
  const auto binary = run_cli(
      {"threshold", path("grey.png"), "-o", path("t.gif"), "--device", "cpu", "--method", "128"});
  ASSERT_EQ(binary.status, 0) << binary.err;
  EXPECT_EQ(binary.err.find("warning"), std::string::npos) << binary.err;
  const auto png = run_cli(
      {"threshold", path("grey.png"), "-o", path("t.png"), "--device", "cpu", "--method", "128"});
  ASSERT_EQ(png.status, 0) << png.err;
  const Image t_png = load_image(path("t.png"));
  const Image t_gif = load_image(path("t.gif"));
  ASSERT_EQ(t_gif.format.layout, ChannelLayout::RGB);
  for (std::uint32_t y = 0; y < t_png.height; ++y) {
    for (std::uint32_t x = 0; x < t_png.width; ++x) {
      ASSERT_EQ(t_gif.view().row(y)[x * 3], t_png.view().row(y)[x]) << x << "," << y;
    }
  }
  // A photograph: its changed pixels counted, as the GIF reads back; alpha said.
  const auto eq_png = run_cli({"equalize", kCoffee, "-o", path("eq8.png"), "--device", "cpu"});
  const auto eq_gif = run_cli({"equalize", kCoffee, "-o", path("eq8.gif"), "--device", "cpu"});
  ASSERT_EQ(eq_png.status, 0) << eq_png.err;
  ASSERT_EQ(eq_gif.status, 0) << eq_gif.err;
  const Image a = load_image(path("eq8.png")), b = load_image(path("eq8.gif"));
  ASSERT_EQ(b.format.layout, ChannelLayout::RGB);
  std::int64_t changed = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    for (std::uint32_t x = 0; x < a.width; ++x) {
      changed += std::memcmp(a.view().row(y) + x * 3, b.view().row(y) + x * 3, 3) != 0 ? 1 : 0;
    }
  }
  EXPECT_GT(changed, 0);
  EXPECT_EQ(eq_gif.err,
            "gpuhist: warning: " + path("eq8.gif") +
                ": a GIF file holds a palette of 256 colours at most: " + std::to_string(changed) +
                " of the picture's pixels are written in a near colour\n");
  const test::TestImage rgba =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 30, 20, test::Content::Random, 6);
  save_image(path("rgba8.png"), rgba.view);
  const auto alpha =
      run_cli({"equalize", path("rgba8.png"), "-o", path("a.gif"), "--device", "cpu"});
  ASSERT_EQ(alpha.status, 0) << alpha.err;
  EXPECT_NE(alpha.err.find(": a GIF file holds no alpha: the alpha is left out; it holds a "
                           "palette of 256 colours at most: "),
            std::string::npos)
      << alpha.err;
}

// The metadata a photograph's file carries, as the image library reads it
// back (its parsers, not gpuhist's copy of the bytes).
struct Metadata {
  int orientation = 0;
  std::string make, taken, description, unit, subsampling;
  float x_resolution = 0;
  std::vector<std::uint8_t> icc;
};

Metadata metadata_of(const std::string& file) {
  Metadata m;
  auto in = OIIO::ImageInput::open(file);
  if (!in) return m;
  const OIIO::ImageSpec& spec = in->spec();
  m.orientation = spec.get_int_attribute("Orientation", 0);
  m.make = spec.get_string_attribute("Make");
  m.taken = spec.get_string_attribute("Exif:DateTimeOriginal");
  m.description = spec.get_string_attribute("ImageDescription");
  m.x_resolution = spec.get_float_attribute("XResolution", 0.0F);
  m.unit = spec.get_string_attribute("ResolutionUnit");
  m.subsampling = spec.get_string_attribute("jpeg:subsampling");
  if (const OIIO::ParamValue* icc = spec.find_attribute("ICCProfile")) {
    const auto* data = static_cast<const std::uint8_t*>(icc->data());
    m.icc.assign(data, data + icc->type().size());
  }
  return m;
}

// A photograph as a camera writes it: turned by its Exif orientation, with its
// maker, date, a description, a resolution and an ICC profile (Adobe RGB,
// rocket.jpg's own).
// With `bare`, the same pixels encoded the same way, with no metadata.
std::vector<std::uint8_t> write_photo(const std::string& file, bool bare = false) {
  const std::vector<std::uint8_t> icc = metadata_of(kRocket).icc;
  const Image pixels = load_image(kRocket);
  OIIO::ImageSpec spec(static_cast<int>(pixels.width), static_cast<int>(pixels.height), 3,
                       OIIO::TypeDesc::UINT8);
  auto out = OIIO::ImageOutput::create(file);
  if (bare) {
    EXPECT_TRUE(out && out->open(file, spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, pixels.view().data) && out->close());
    return {};
  }
  spec.attribute("Orientation", 6);
  spec.attribute("Make", "TestCam");
  spec.attribute("Exif:DateTimeOriginal", "2026:01:02 03:04:05");
  spec.attribute("ImageDescription", "a rocket");
  spec.attribute("XResolution", 300.0F);
  spec.attribute("YResolution", 300.0F);
  spec.attribute("ResolutionUnit", "in");
  spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(icc.size())),
                 icc.data());
  EXPECT_TRUE(out && out->open(file, spec) &&
              out->write_image(OIIO::TypeDesc::UINT8, pixels.view().data) && out->close());
  return icc;
}

// An adjusted photograph is still shown the right way up, in its colours,
// with its camera data: JPEG to JPEG and PNG to PNG keep the source's
// metadata, its pixels exactly those written without it. A grey result
// (threshold) of a colour source keeps all but the colour profile.
TEST_F(AdjustCli, AdjustedPhotosKeepTheirMetadata) {
  for (const char* ext : {".jpg", ".png", ".tif"}) {
    const std::string photo = path("photo") + ext;
    const std::string bare = path("bare") + ext;
    const std::vector<std::uint8_t> icc = write_photo(photo);
    (void)write_photo(bare, true);
    ASSERT_GT(icc.size(), 100U);
    const Metadata source = metadata_of(photo);
    ASSERT_EQ(source.icc, icc) << ext;
    ASSERT_EQ(source.make, "TestCam") << ext;
    ASSERT_TRUE(metadata_of(bare).icc.empty() && metadata_of(bare).make.empty());
    ASSERT_EQ(bytes_of(load_image(photo)), bytes_of(load_image(bare))) << ext;
    for (const std::string verb : {"equalize", "threshold"}) {
      const std::string out = path("out") + ext;
      const std::string out_bare = path("out_bare") + ext;
      for (const auto& [in, to] : {std::pair{photo, out}, std::pair{bare, out_bare}}) {
        const auto r = run_cli({verb, in, "-o", to, "--device", "cpu"});
        ASSERT_EQ(r.status, 0) << r.err;
      }
      const bool grey = verb == "threshold";
      const Metadata kept = metadata_of(out);
      EXPECT_EQ(kept.description, "a rocket") << ext << verb;
      EXPECT_NEAR(kept.x_resolution, 300.0F, 0.01F) << ext << verb;  // PNG: per metre
      if (std::string(ext) != ".png") {  // Exif: PNG's eXIf is not what the library reads
        EXPECT_EQ(kept.orientation, 6) << verb;
        EXPECT_EQ(kept.make, "TestCam") << verb;
      }
      // Exif's own fields: in a JPEG; a TIFF's Exif directory is not written (the image library).
      if (std::string(ext) == ".jpg") EXPECT_EQ(kept.taken, "2026:01:02 03:04:05") << verb;
      EXPECT_EQ(kept.icc, grey ? std::vector<std::uint8_t>{} : icc) << ext << verb;
      // The pixels are those the same adjustment writes with nothing to keep.
      EXPECT_TRUE(metadata_of(out_bare).icc.empty() && metadata_of(out_bare).make.empty());
      EXPECT_EQ(bytes_of(load_image(out)), bytes_of(load_image(out_bare))) << ext << verb;
    }
  }
  // The orientation from one format to another: a PNG written gets it as an
  // eXIf chunk of its own (the library's writer writes none), and a PNG's
  // eXIf (a 16-bit integer to the library) goes on to a TIFF or a JPEG.
  const auto to_png =
      run_cli({"equalize", path("photo.tif"), "-o", path("turned.png"), "--device", "cpu"});
  ASSERT_EQ(to_png.status, 0) << to_png.err;
  EXPECT_EQ(metadata_of(path("turned.png")).orientation, 6);
  EXPECT_NE(test::file_text(path("turned.png")).find("eXIf"), std::string::npos);
  for (const char* ext : {".tif", ".jpg", ".exr"}) {
    const std::string out = path("from_png") + ext;
    const auto r = run_cli({"equalize", path("turned.png"), "-o", out, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(metadata_of(out).orientation, 6) << ext;
  }
  const auto upright =
      run_cli({"equalize", path("bare.tif"), "-o", path("upright.png"), "--device", "cpu"});
  ASSERT_EQ(upright.status, 0) << upright.err;
  EXPECT_EQ(test::file_text(path("upright.png")).find("eXIf"), std::string::npos);
  // A JPEG into another format: its orientation and ICC profile, read from its segments
  // (never by the library's parsers), and a warning that its Exif fields are not written.
  // A WebP gets them as chunks of its own (the library's writer writes none).
  for (const char* ext : {".png", ".tif", ".webp"}) {
    const std::string cross = path("cross") + ext;
    const auto r = run_cli({"equalize", path("photo.jpg"), "-o", cross, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string kept = std::string(ext) == ".webp"
                                 ? "orientation and colour profile"
                                 : "orientation, colour profile and pixel density";
    EXPECT_EQ(r.err, "gpuhist: warning: " + cross + ": the source's metadata other than its " +
                         kept + " (camera and Exif fields, XMP, IPTC, captions) is not written\n");
    EXPECT_EQ(load_image(cross).orientation, 6) << ext;
    if (std::string(ext) != ".webp") {
      EXPECT_EQ(metadata_of(cross).icc, metadata_of(kRocket).icc) << ext;
    } else {
      const std::string bytes = test::file_text(cross);
      const std::vector<std::uint8_t> icc = metadata_of(kRocket).icc;
      EXPECT_EQ(bytes.substr(12, 4), "VP8X");
      EXPECT_NE(bytes.find("ICCP"), std::string::npos);
      EXPECT_NE(bytes.find(std::string(icc.begin(), icc.end())), std::string::npos);
      // The same pixels as a WebP written with nothing to keep.
      const auto bare_webp =
          run_cli({"equalize", path("bare.jpg"), "-o", path("bare.webp"), "--device", "cpu"});
      ASSERT_EQ(bare_webp.status, 0) << bare_webp.err;
      EXPECT_EQ(bytes_of(load_image(cross)), bytes_of(load_image(path("bare.webp"))));
    }
  }
  // JPEG outputs at quality 100: every quantisation step 1.
  const std::string jpeg = test::file_text(path("out.jpg"));
  const std::size_t scan = jpeg.find("\xFF\xDA");
  std::size_t tables = 0;
  for (std::size_t at = jpeg.find("\xFF\xDB"); at < scan; at = jpeg.find("\xFF\xDB", at + 2)) {
    ++tables;
    const std::size_t length =
        static_cast<unsigned char>(jpeg[at + 2]) * 256U + static_cast<unsigned char>(jpeg[at + 3]);
    for (std::size_t i = at + 5; i < at + 2 + length; ++i) {
      if ((i - at - 4) % 65 == 0) continue;  // a table's precision and number
      ASSERT_EQ(static_cast<unsigned char>(jpeg[i]), 1U) << "quantisation step at " << i;
    }
  }
  EXPECT_GE(tables, 1U);
  const auto plain = run_cli({"equalize", kCoffee, "-o", path("plain.png"), "--device", "cpu"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(metadata_of(path("plain.png")).description, "");
}

// `jpeg` (a file's bytes) with `segment` (marker, length and payload) put
// right after its start of image.
std::string with_segment(const std::string& jpeg, unsigned marker, const std::string& payload) {
  const std::size_t length = payload.size() + 2;
  return jpeg.substr(0, 2) + static_cast<char>(0xFF) + static_cast<char>(marker) +
         static_cast<char>(length >> 8) + static_cast<char>(length & 0xFF) + payload +
         jpeg.substr(2);
}

// `view` (8- or 16-bit, alpha kept) as a TIFF of orientation 6 (turned as a
// phone's portrait is stored), with `icc` as its profile where not empty.
bool write_turned_tiff(const std::string& file, const ImageView& view,
                       const std::vector<std::uint8_t>& icc = {}) {
  const OIIO::TypeDesc type =
      view.format.sample == SampleType::U8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16;
  OIIO::ImageSpec spec(static_cast<int>(view.width), static_cast<int>(view.height),
                       static_cast<int>(channel_count(view.format.layout)), type);
  if (view.format.layout == ChannelLayout::RGBA) {
    spec.alpha_channel = 3;
    spec.attribute("oiio:UnassociatedAlpha", 1);
  }
  spec.attribute("Orientation", 6);
  if (!icc.empty()) {
    spec.attribute("ICCProfile",
                   OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(icc.size())), icc.data());
  }
  auto out = OIIO::ImageOutput::create(file);
  return out && out->open(file, spec) && out->write_image(type, view.data) && out->close();
}

// What other formats hold of a picture's metadata, and what is said of the
// rest: a JPEG whose Exif holds an orientation alone loses nothing in a PNG;
// a damaged profile is left out, and said; a BMP holds no orientation, which
// is said; an RGBA WebP (the writer's VP8X, ALPH and VP8) gets the orientation
// and profile chunks too.
TEST_F(AdjustCli, WhatOtherFormatsHoldOfThePicturesMetadata) {
  (void)write_photo(path("bare.jpg"), true);
  const std::string bare = test::file_text(path("bare.jpg"));
  // Exif of one entry: Orientation 6 (a big-endian TIFF directory).
  const std::string exif =
      std::string("Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0", 32);
  std::ofstream(path("turned.jpg"), std::ios::binary) << with_segment(bare, 0xE1, exif);
  const auto png =
      run_cli({"equalize", path("turned.jpg"), "-o", path("turned.png"), "--device", "cpu"});
  ASSERT_EQ(png.status, 0) << png.err;
  EXPECT_EQ(png.err, "");
  EXPECT_EQ(metadata_of(path("turned.png")).orientation, 6);
  const auto bmp =
      run_cli({"equalize", path("turned.jpg"), "-o", path("turned.bmp"), "--device", "cpu"});
  ASSERT_EQ(bmp.status, 0) << bmp.err;
  EXPECT_EQ(bmp.err, "gpuhist: warning: " + path("turned.bmp") +
                         ": the file holds no orientation: the source's orientation (6) is not "
                         "written\n");
  // Every format but TIFF, PNG, JPEG, OpenEXR and WebP holds none: SGI too, and a 16-bit
  // PNM, which gpuhist writes itself.
  const auto sgi =
      run_cli({"equalize", path("turned.jpg"), "-o", path("turned.sgi"), "--device", "cpu"});
  ASSERT_EQ(sgi.status, 0) << sgi.err;
  EXPECT_NE(sgi.err.find("the source's orientation (6) is not written"), std::string::npos)
      << sgi.err;
  const test::TestImage deep =
      test::make_image({ChannelLayout::RGB, SampleType::U16}, 12, 8, test::Content::Random, 3);
  ASSERT_TRUE(write_turned_tiff(path("deep.tif"), deep.view));
  const auto ppm =
      run_cli({"equalize", path("deep.tif"), "-o", path("deep.ppm"), "--device", "cpu"});
  ASSERT_EQ(ppm.status, 0) << ppm.err;
  EXPECT_EQ(ppm.err, "gpuhist: warning: " + path("deep.ppm") +
                         ": the file holds no orientation: the source's orientation (6) is not "
                         "written\n");
  // A profile whose header does not add up: the picture written without it.
  const std::string damaged = std::string("ICC_PROFILE\0\x01\x01", 14) + std::string(200, 'x');
  std::ofstream(path("badicc.jpg"), std::ios::binary) << with_segment(bare, 0xE2, damaged);
  for (const char* ext : {".png", ".tif"}) {
    const std::string out = path("badicc") + ext;
    const auto r = run_cli({"equalize", path("badicc.jpg"), "-o", out, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "gpuhist: warning: " + out +
                         ": the source's colour profile is damaged, and is not written\n");
    EXPECT_TRUE(metadata_of(out).icc.empty()) << ext;
  }
  // RGBA into WebP: orientation and profile chunks beside the writer's alpha.
  const std::vector<std::uint8_t> icc = metadata_of(kRocket).icc;
  const test::TestImage rgba =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 24, 16, test::Content::Random, 7);
  ASSERT_TRUE(write_turned_tiff(path("rgba.tif"), rgba.view, icc));
  const auto webp =
      run_cli({"equalize", path("rgba.tif"), "-o", path("rgba.webp"), "--device", "cpu"});
  ASSERT_EQ(webp.status, 0) << webp.err;
  const std::string bytes = test::file_text(path("rgba.webp"));
  ASSERT_EQ(bytes.substr(12, 4), "VP8X");
  EXPECT_EQ(static_cast<unsigned char>(bytes[20]) & 0x38U, 0x38U);  // ICC, alpha, EXIF
  EXPECT_NE(bytes.find("ALPH"), std::string::npos);
  EXPECT_NE(bytes.find(std::string(icc.begin(), icc.end())), std::string::npos);
  EXPECT_EQ(load_image(path("rgba.webp")).orientation, 6);
  EXPECT_TRUE(load_image(path("rgba.webp"), LoadOptions{.alpha = true}).format.layout ==
              ChannelLayout::RGBA);
  // An OpenEXR file gets the orientation; its writer leaves the profile out, which is said.
  const auto exr =
      run_cli({"equalize", path("rgba.tif"), "-o", path("rgba.exr"), "--device", "cpu"});
  ASSERT_EQ(exr.status, 0) << exr.err;
  EXPECT_NE(exr.err.find("the file holds no colour profile: the source's colour profile is not "
                         "written"),
            std::string::npos)
      << exr.err;
  EXPECT_EQ(std::count(exr.err.begin(), exr.err.end(), '\n'), 1) << exr.err;
  auto written = OIIO::ImageInput::open(path("rgba.exr"));
  ASSERT_TRUE(written);
  EXPECT_EQ(written->spec().get_int_attribute("Orientation", 1), 6);
}

// Formats whose writer writes no picture file (null, term: the terminal) or a
// wrong one (a JPEG 2000 file no reader decodes; a FITS file of signed,
// halved 16-bit samples) are refused before anything is written; HEIF, AVIF
// and IFF files take a grey image as RGB, and HEIF and AVIF a --quality.
TEST_F(AdjustCli, OutputFormatsAreWrittenWholeOrRefused) {
  const test::TestImage grey =
      test::make_image({ChannelLayout::Grey, SampleType::U8}, 24, 16, test::Content::Random, 4);
  ASSERT_NO_THROW((void)save_image(path("grey.png"), grey.view));
  for (const char* ext : {".fits", ".jp2", ".null", ".term", ".zfile"}) {
    const std::string out = path("refused") + ext;
    const auto r = run_cli({"equalize", path("grey.png"), "-o", out, "--device", "cpu"});
    EXPECT_EQ(r.status, 2) << ext << ": " << r.err;
    EXPECT_NE(r.err.find("images are not written to '" + std::string(ext) + "' files"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << ext;
    EXPECT_FALSE(fs::exists(out)) << ext;
  }
  LoadOptions all;
  all.formats = FormatSet::All;
  for (const char* ext : {".heic", ".avif", ".iff"}) {
    const std::string out = path("grey") + ext;
    // Matched to itself at the highest quality: the grey levels as they were.
    std::vector<std::string> args = {
        "match", path("grey.png"), "--reference", path("grey.png"), "-o", out, "--device", "cpu"};
    if (std::string(ext) != ".iff") args.insert(args.end(), {"--quality", "100"});
    const auto r = run_cli(args);
    ASSERT_EQ(r.status, 0) << ext << ": " << r.err;
    const Image back = load_image(out, all);
    ASSERT_EQ(back.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8})) << ext;
    const std::vector<std::byte> rgb = bytes_of(back);
    const std::vector<std::byte> levels = bytes_of(load_image(path("grey.png")));
    ASSERT_EQ(rgb.size(), levels.size() * 3);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(rgb[3 * i + c], levels[i]) << ext << " " << i;
    }
  }
  // A lower quality is taken, and loses more.
  const auto low =
      run_cli({"equalize", kCoffee, "-o", path("low.avif"), "--quality", "30", "--device", "cpu"});
  ASSERT_EQ(low.status, 0) << low.err;
  const auto high = run_cli({"equalize", kCoffee, "-o", path("high.avif"), "--device", "cpu"});
  ASSERT_EQ(high.status, 0) << high.err;
  EXPECT_LT(fs::file_size(path("low.avif")), fs::file_size(path("high.avif")));
}

// --quality sets a JPEG's quality as libjpeg scales its tables (at 50, the
// standard's own luminance table, ITU-T T.81 K.1) and a WebP's; other formats
// and values outside 1..100 are usage errors, before anything is written.
TEST_F(AdjustCli, QualityOfJpegAndWebpOutputs) {
  const auto half =
      run_cli({"equalize", kCoffee, "-o", path("q50.jpg"), "--quality", "50", "--device", "cpu"});
  ASSERT_EQ(half.status, 0) << half.err;
  const std::string jpeg = test::file_text(path("q50.jpg"));
  const std::size_t dqt = jpeg.find("\xFF\xDB");
  ASSERT_NE(dqt, std::string::npos);
  // The first eight steps in the zig-zag order the file holds them.
  const unsigned char k1[] = {16, 11, 12, 14, 12, 10, 16, 14};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(static_cast<unsigned char>(jpeg[dqt + 5 + i]), k1[i]) << i;
  }
  const auto best = run_cli({"equalize", kCoffee, "-o", path("q100.jpg"), "--device", "cpu"});
  ASSERT_EQ(best.status, 0) << best.err;
  EXPECT_LT(jpeg.size(), test::file_text(path("q100.jpg")).size());
  const auto webp =
      run_cli({"equalize", kCoffee, "-o", path("q.webp"), "--quality", "60", "--device", "cpu"});
  ASSERT_EQ(webp.status, 0) << webp.err;
  const auto webp100 = run_cli({"equalize", kCoffee, "-o", path("q100.webp"), "--device", "cpu"});
  ASSERT_EQ(webp100.status, 0) << webp100.err;
  EXPECT_LT(test::file_text(path("q.webp")).size(), test::file_text(path("q100.webp")).size());
  const std::pair<std::vector<std::string>, std::string> refused[] = {
      {{"--quality", "0", "-o", path("r.jpg")},
       "--quality '0' is not a whole number from 1 to 100"},
      {{"--quality", "101", "-o", path("r.jpg")}, "'101' is not a whole number from 1 to 100"},
      {{"--quality", "4294967297", "-o", path("r.jpg")}, "'4294967297' is not a whole number"},
      {{"--quality", "-5", "-o", path("r.jpg")}, "'-5' is not a whole number from 1 to 100"},
      {{"--quality", "80", "-o", path("r.png")}, "-o names another format"},
  };
  for (const auto& [options, said] : refused) {
    std::vector<std::string> args = {"equalize", kCoffee, "--device", "cpu"};
    args.insert(args.end(), options.begin(), options.end());
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(path("r.jpg")));
  EXPECT_FALSE(fs::exists(path("r.png")));
  // .jif names a JPEG too.
  const auto jif =
      run_cli({"equalize", kCoffee, "-o", path("q.jif"), "--quality", "50", "--device", "cpu"});
  EXPECT_EQ(jif.status, 0) << jif.err;
}

// CRC-32 of PNG chunks (ISO 3309), over a chunk's type and data.
std::uint32_t png_crc(const std::string& bytes) {
  std::uint32_t crc = 0xFFFFFFFFU;
  for (const char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320U & (0U - (crc & 1U)));
  }
  return ~crc;
}

// A TIFF's camera fields (Exif, two of them named as TIFF tags, its software,
// keywords, an IPTC caption) go to a JPEG and a PNG (as an eXIf chunk); a TIFF
// output holds no Exif directory, which is said, as is a source's XMP where
// it is not written (a PNG written from a PNG keeps it). A JPEG's JFIF pixel
// density goes to a TIFF.
TEST_F(AdjustCli, CameraFieldsGoWhereTheFormatHoldsThem) {
  const test::TestImage rgb =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 24, 16, test::Content::Random, 5);
  OIIO::ImageSpec spec(24, 16, 3, OIIO::TypeDesc::UINT8);
  spec.attribute("ExposureTime", 0.004F);
  spec.attribute("FNumber", 2.8F);
  spec.attribute("Exif:FocalLength", 35.0F);
  spec.attribute("Exif:DateTimeOriginal", "2024:01:02 03:04:05");
  spec.attribute("Software", "Camera 1.0");
  spec.attribute("Keywords", "coffee; cup");
  spec.attribute("IPTC:ObjectName", "A title");
  spec.attribute("tiff:write_iptc", 1);
  {
    auto out = OIIO::ImageOutput::create(path("camera.tif"));
    ASSERT_TRUE(out && out->open(path("camera.tif"), spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, rgb.view.data) && out->close());
  }
  for (const char* ext : {".png", ".jpg", ".tif"}) {
    const std::string out = path("camera-eq") + ext;
    const auto r = run_cli({"equalize", path("camera.tif"), "-o", out, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto in = OIIO::ImageInput::open(out);
    ASSERT_TRUE(in) << ext;
    const OIIO::ImageSpec& got = in->spec();
    EXPECT_EQ(got.get_string_attribute("Software"), "Camera 1.0") << ext;
    EXPECT_EQ(got.get_string_attribute("Keywords"), "coffee; cup") << ext;
    EXPECT_EQ(got.get_string_attribute("IPTC:ObjectName"), "A title") << ext;
    if (std::string(ext) == ".tif") {
      EXPECT_EQ(r.err, "gpuhist: warning: " + out + ": the source's Exif fields are not written\n");
      continue;
    }
    EXPECT_EQ(r.err, "") << ext;
    EXPECT_FLOAT_EQ(got.get_float_attribute("ExposureTime"), 0.004F) << ext;
    EXPECT_FLOAT_EQ(got.get_float_attribute("FNumber"), 2.8F) << ext;
    EXPECT_FLOAT_EQ(got.get_float_attribute("Exif:FocalLength"), 35.0F) << ext;
    EXPECT_EQ(got.get_string_attribute("Exif:DateTimeOriginal"), "2024:01:02 03:04:05") << ext;
  }
  // The ISO of a TIFF's Exif directory, which the image library neither reads
  // nor writes in a TIFF: a TIFF of 4x2 RGB pixels made by hand, little-endian.
  std::string tiff("II*\0\x08\0\0\0", 8);
  const auto put = [&](std::uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) tiff += static_cast<char>(v >> (8 * i));
  };
  const auto entry = [&](std::uint32_t tag, std::uint32_t type, std::uint32_t value) {
    put(tag, 2);
    put(type, 2);
    put(1, 4);
    put(value, 4);  // a SHORT in the first two bytes, as little-endian puts it
  };
  constexpr std::uint32_t kBits = 8 + 2 + 10 * 12 + 4, kExif = kBits + 6, kPixels = kExif + 18;
  put(10, 2);
  entry(256, 3, 4);  // width
  entry(257, 3, 2);  // height
  put(258, 2);       // bits per sample: three, at kBits
  put(3, 2);
  put(3, 4);
  put(kBits, 4);
  entry(259, 3, 1);          // no compression
  entry(262, 3, 2);          // RGB
  entry(273, 4, kPixels);    // the strip
  entry(277, 3, 3);          // samples per pixel
  entry(278, 3, 2);          // rows per strip
  entry(279, 4, 4 * 2 * 3);  // its bytes
  entry(34665, 4, kExif);    // the Exif directory
  put(0, 4);
  for (int i = 0; i < 3; ++i) put(8, 2);
  put(1, 2);
  entry(34855, 3, 400);  // ISO speed
  put(0, 4);
  for (int i = 0; i < 4 * 2 * 3; ++i) tiff += static_cast<char>(i * 10);
  ASSERT_EQ(tiff.size(), kPixels + 24U);
  std::ofstream(path("iso.tif"), std::ios::binary) << tiff;
  ASSERT_EQ(load_image(path("iso.tif")).width, 4U);
  for (const char* ext : {".png", ".jpg"}) {
    const std::string out = path("iso-eq") + ext;
    const auto r = run_cli({"equalize", path("iso.tif"), "-o", out, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto in = OIIO::ImageInput::open(out);
    ASSERT_TRUE(in) << ext;
    EXPECT_EQ(in->spec().get_int_attribute("Exif:PhotographicSensitivity"), 400) << ext;
  }
  // In a PNG the Exif fields are one eXIf chunk, not text chunks named after them.
  const std::string png = test::file_text(path("camera-eq.png"));
  EXPECT_NE(png.find("eXIf"), std::string::npos);
  EXPECT_EQ(png.find("Exif:"), std::string::npos);
  // XMP in a PNG (an iTXt chunk after the header): not written to a JPEG, kept in a PNG.
  const auto plain = run_cli({"equalize", kCoffee, "-o", path("plain.png"), "--device", "cpu"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  const std::string bare = test::file_text(path("plain.png"));
  const std::string data = std::string("XML:com.adobe.xmp\0\0\0\0\0", 22) +
                           "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>";
  const std::string typed = "iTXt" + data;
  std::string chunk;
  for (const std::uint32_t v : {static_cast<std::uint32_t>(data.size()), 0U}) {
    if (v == 0U) chunk += typed;
    const std::uint32_t w = v == 0U ? png_crc(typed) : v;
    for (const int shift : {24, 16, 8, 0}) chunk += static_cast<char>(w >> shift);
  }
  std::ofstream(path("xmp.png"), std::ios::binary) << bare.substr(0, 33) + chunk + bare.substr(33);
  const auto to_jpeg =
      run_cli({"equalize", path("xmp.png"), "-o", path("xmp.jpg"), "--device", "cpu"});
  ASSERT_EQ(to_jpeg.status, 0) << to_jpeg.err;
  EXPECT_EQ(to_jpeg.err,
            "gpuhist: warning: " + path("xmp.jpg") + ": the source's XMP packet is not written\n");
  const auto to_png =
      run_cli({"equalize", path("xmp.png"), "-o", path("xmp-eq.png"), "--device", "cpu"});
  ASSERT_EQ(to_png.status, 0) << to_png.err;
  EXPECT_EQ(to_png.err, "");
  EXPECT_NE(test::file_text(path("xmp-eq.png")).find("XML:com.adobe.xmp"), std::string::npos);
  // A JPEG's JFIF density (600 by 300 dots per inch) into a TIFF; a TIFF's into a JPEG.
  OIIO::ImageSpec dense(24, 16, 3, OIIO::TypeDesc::UINT8);
  dense.attribute("XResolution", 600.0F);
  dense.attribute("YResolution", 300.0F);
  dense.attribute("ResolutionUnit", "in");
  {
    auto out = OIIO::ImageOutput::create(path("scan.jpg"));
    ASSERT_TRUE(out && out->open(path("scan.jpg"), dense) &&
                out->write_image(OIIO::TypeDesc::UINT8, rgb.view.data) && out->close());
  }
  const std::string scan = test::file_text(path("scan.jpg"));
  // JFIF: units (1: per inch), then the densities across and down, big-endian.
  const auto jfif = [](const std::string& jpeg) {
    EXPECT_EQ(jpeg.substr(6, 5), std::string("JFIF\0", 5));
    const auto byte = [&](std::size_t i) {
      return static_cast<unsigned>(static_cast<unsigned char>(jpeg[i]));
    };
    return std::array<unsigned, 3>{byte(13), byte(14) << 8 | byte(15), byte(16) << 8 | byte(17)};
  };
  ASSERT_EQ(jfif(scan), (std::array<unsigned, 3>{1, 600, 300}));
  const auto tif =
      run_cli({"autolevel", path("scan.jpg"), "-o", path("scan.tif"), "--device", "cpu"});
  ASSERT_EQ(tif.status, 0) << tif.err;
  auto in = OIIO::ImageInput::open(path("scan.tif"));
  ASSERT_TRUE(in);
  EXPECT_FLOAT_EQ(in->spec().get_float_attribute("XResolution"), 600.0F);
  EXPECT_FLOAT_EQ(in->spec().get_float_attribute("YResolution"), 300.0F);
  EXPECT_EQ(in->spec().get_string_attribute("ResolutionUnit"), "in");
  const auto back =
      run_cli({"autolevel", path("scan.tif"), "-o", path("back.jpg"), "--device", "cpu"});
  ASSERT_EQ(back.status, 0) << back.err;
  EXPECT_EQ(jfif(test::file_text(path("back.jpg"))), (std::array<unsigned, 3>{1, 600, 300}));
  // In a PNG, pixels a metre rounded: 240 dpi is 9448.8, written 9449 (not 9448, 239.98 dpi).
  dense.attribute("XResolution", 240.0F);
  dense.attribute("YResolution", 240.0F);
  {
    auto out = OIIO::ImageOutput::create(path("print.jpg"));
    ASSERT_TRUE(out && out->open(path("print.jpg"), dense) &&
                out->write_image(OIIO::TypeDesc::UINT8, rgb.view.data) && out->close());
  }
  const auto png_out =
      run_cli({"autolevel", path("print.jpg"), "-o", path("print.png"), "--device", "cpu"});
  ASSERT_EQ(png_out.status, 0) << png_out.err;
  const std::string printed = test::file_text(path("print.png"));
  const std::size_t phys = printed.find("pHYs");
  ASSERT_NE(phys, std::string::npos);
  const auto big = [&](std::size_t i) {
    return static_cast<unsigned>(static_cast<unsigned char>(printed[i])) << 24 |
           static_cast<unsigned>(static_cast<unsigned char>(printed[i + 1])) << 16 |
           static_cast<unsigned>(static_cast<unsigned char>(printed[i + 2])) << 8 |
           static_cast<unsigned>(static_cast<unsigned char>(printed[i + 3]));
  };
  EXPECT_EQ(big(phys + 4), 9449U);
  EXPECT_EQ(big(phys + 8), 9449U);
  EXPECT_EQ(printed[phys + 12], 1);                              // metres
  EXPECT_EQ(big(phys + 13), png_crc(printed.substr(phys, 13)));  // its CRC made anew
}

// An adjusted JPEG is written with its source's chroma subsampling: a 4:4:4
// photograph does not lose colour detail to the encoder's default 4:2:0, nor
// one whose metadata before the frame header runs past the first read.
TEST_F(AdjustCli, AdjustedJpegsKeepTheirChromaSubsampling) {
  const Image pixels = load_image(kRocket);
  for (const char* sampling :
       {"4:4:4", "4:2:2", "4:4:4 after 200 KB", "4:4:4 by ffmpeg", "4:2:2 by ffmpeg"}) {
    const std::string in = path("sampled.jpg");
    const std::string out = path("sampled-out.jpg");
    OIIO::ImageSpec spec(static_cast<int>(pixels.width), static_cast<int>(pixels.height), 3,
                         OIIO::TypeDesc::UINT8);
    const std::string expected = std::string(sampling).substr(0, 5);
    spec.attribute("jpeg:subsampling", expected);
    const bool by_ffmpeg = std::string(sampling).find("ffmpeg") != std::string::npos;
    if (by_ffmpeg) {
      // FFmpeg's factors: 1x2 for every component at 4:4:4, luma 2x2 at 4:2:2.
      ASSERT_TRUE(test::ffmpeg("-y -i " + std::string(kRocket) + " -pix_fmt " +
                               (expected == "4:4:4" ? "yuvj444p" : "yuvj422p") + " " + in));
    } else {
      auto file = OIIO::ImageOutput::create(in);
      ASSERT_TRUE(file && file->open(in, spec) &&
                  file->write_image(OIIO::TypeDesc::UINT8, pixels.view().data) && file->close());
    }
    if (std::string(sampling).find("200 KB") != std::string::npos) {
      // Four APP15 segments of 50,000 bytes after the start of image.
      std::ifstream read(in, std::ios::binary);
      std::vector<char> bytes{std::istreambuf_iterator<char>(read), {}};
      std::vector<char> app(50'000, 'x');
      app[0] = static_cast<char>(0xFF);
      app[1] = static_cast<char>(0xEF);
      app[2] = static_cast<char>((50'000 - 2) >> 8);
      app[3] = static_cast<char>((50'000 - 2) & 0xFF);
      for (int i = 0; i < 4; ++i) bytes.insert(bytes.begin() + 2, app.begin(), app.end());
      std::ofstream(in, std::ios::binary | std::ios::trunc)
          .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    if (!by_ffmpeg) ASSERT_EQ(metadata_of(in).subsampling, expected);
    const auto r = run_cli({"equalize", in, "-o", out, "--device", "cpu"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(metadata_of(out).subsampling, expected) << sampling;
  }
}

}  // namespace
}  // namespace gpuhist
