// Image files through the real decoders: every supported format is written
// with OpenImageIO, read back by load_image, and counted.
#include <gtest/gtest.h>

#include <Imath/half.h>
#include <OpenEXR/OpenEXRConfig.h>
#include <OpenImageIO/imageio.h>

// jpeglib.h needs FILE and size_t declared before it.
// clang-format off
#include <cstdio>
#include <jpeglib.h>
#include <webp/encode.h>
#include <zlib.h>
// clang-format on

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "io/images/memory_reader.hpp"
#include "io/jpeg_segments.hpp"
#include "io/kept_metadata.hpp"
#include "support/compare.hpp"
#include "support/png_builder.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"
#include "support/tiff_builder.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;

// load_image refuses `file` with an input error that says `why`.
void expect_refused(const fs::path& file, const std::string& why) {
  try {
    (void)load_image(file);
    ADD_FAILURE() << file << " read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input) << file;
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

class ImageFiles : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes a test image with OpenImageIO; returns its path.
  fs::path write(const std::string& name, const test::TestImage& image, OIIO::TypeDesc type) {
    const fs::path path = dir_ / name;
    auto out = OIIO::ImageOutput::create(path.string());
    EXPECT_TRUE(out) << OIIO::geterror();
    const auto& v = image.view;
    OIIO::ImageSpec spec(static_cast<int>(v.width), static_cast<int>(v.height),
                         static_cast<int>(channel_count(v.format.layout)), type);
    spec.attribute("oiio:UnassociatedAlpha", 1);  // write the samples as given
    EXPECT_TRUE(out->open(path.string(), spec)) << out->geterror();
    const OIIO::TypeDesc in_type = v.format.sample == SampleType::U8    ? OIIO::TypeDesc::UINT8
                                   : v.format.sample == SampleType::U16 ? OIIO::TypeDesc::UINT16
                                                                        : OIIO::TypeDesc::FLOAT;
    EXPECT_TRUE(
        out->write_image(in_type, v.data, OIIO::AutoStride, static_cast<OIIO::stride_t>(v.stride)))
        << out->geterror();
    out->close();
    return path;
  }

  fs::path dir_;
};

// Lossless formats give back exactly the pixels written, with the same sample type.
TEST_F(ImageFiles, LosslessFormatsRoundTrip) {
  struct Case {
    const char* name;
    PixelFormat format;
    OIIO::TypeDesc type;
  };
  const Case cases[] = {
      {"rgb8.png", {ChannelLayout::RGB, SampleType::U8}, OIIO::TypeDesc::UINT8},
      {"grey8.png", {ChannelLayout::Grey, SampleType::U8}, OIIO::TypeDesc::UINT8},
      {"rgb16.png", {ChannelLayout::RGB, SampleType::U16}, OIIO::TypeDesc::UINT16},
      {"rgb8.tif", {ChannelLayout::RGB, SampleType::U8}, OIIO::TypeDesc::UINT8},
      {"grey16.tif", {ChannelLayout::Grey, SampleType::U16}, OIIO::TypeDesc::UINT16},
      {"rgbf.tif", {ChannelLayout::RGB, SampleType::F32}, OIIO::TypeDesc::FLOAT},
      {"rgbf.exr", {ChannelLayout::RGB, SampleType::F32}, OIIO::TypeDesc::FLOAT},
  };
  const Context context = Context::open("cpu");
  for (const Case& c : cases) {
    const auto image = test::make_image(c.format, 37, 23, test::Content::Random, 3);
    const fs::path path = write(c.name, image, c.type);
    const Image loaded = load_image(path);
    EXPECT_EQ(loaded.format, c.format) << c.name << " read as " << to_string(loaded.format);
    EXPECT_EQ(loaded.width, 37U);
    EXPECT_EQ(loaded.height, 23U);
    for (std::uint32_t bins : {256U, 1000U}) {
      EXPECT_TRUE(test::same_histograms(context.compute(loaded.view(), {bins}),
                                        context.compute(image.view, {bins})))
          << c.name;
    }
  }
}

// RGBA files count R, G and B; the alpha channel is not read.
// 16-bit PNM samples are read as stored, binary and ASCII, grey and RGB,
// comments in the header; a maximum other than 65535 is scaled to 16 bits,
// rounded down (65535 * v / M), as `oiiotool --dumpdata` shows such a file
// and as 8-bit samples are scaled. The image library alone read 65535 as
// 65534 and 40000 as 39999.
// A plain PBM's pixels need no whitespace between them (netpbm's rule; the
// library's reader refused such files as "unknown decoder error"): read as
// the same pixels spaced out are, 1 black. A raster that ends early or holds
// another character is still refused.
TEST_F(ImageFiles, PlainPbmsReadWithOrWithoutSpaces) {
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  };
  const Image spaced =
      load_image(write("spaced.pbm", "P1\n5 3\n1 0 1 1 0\n0 0 0 1 1\n1 1 1 1 1\n"));
  ASSERT_EQ(spaced.format, (PixelFormat{ChannelLayout::Grey, SampleType::U8}));
  EXPECT_EQ(std::to_integer<unsigned>(spaced.view().row(0)[0]), 0U);
  EXPECT_EQ(std::to_integer<unsigned>(spaced.view().row(0)[1]), 255U);
  for (const std::string& raster :
       {std::string("10110\n00011\n11111\n"), std::string("101100001111111"),
        std::string("1 01\n10 00 0\t11\r\n1 1111\n")}) {
    const Image packed = load_image(write("packed.pbm", "P1\n# a comment\n5 3\n" + raster));
    ASSERT_EQ(packed.format, spaced.format) << raster;
    for (std::uint32_t y = 0; y < 3; ++y) {
      EXPECT_EQ(std::memcmp(packed.view().row(y), spaced.view().row(y), 5), 0) << raster << y;
    }
  }
  EXPECT_THROW((void)load_image(write("short.pbm", "P1\n5 3\n10110000111111\n")), Error);
  EXPECT_THROW((void)load_image(write("other.pbm", "P1\n5 3\n1011000x1111111\n")), Error);
}

TEST_F(ImageFiles, DeepPnmSamplesAreReadAsStored) {
  const std::vector<std::uint32_t> values = {0, 1, 2, 32767, 32768, 32769, 40000, 65534, 65535};
  const auto big_endian = [](const std::vector<std::uint32_t>& v) {
    std::string bytes;
    for (const std::uint32_t s : v) {
      bytes += static_cast<char>(s >> 8);
      bytes += static_cast<char>(s & 255);
    }
    return bytes;
  };
  const auto text = [](const std::vector<std::uint32_t>& v) {
    std::string out;
    for (const std::uint32_t s : v) out += std::to_string(s) + (out.size() % 7 == 0 ? "\n" : " ");
    return out;
  };
  const auto samples_of = [](const Image& image) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t y = 0; y < image.height; ++y) {
      const auto* row =
          reinterpret_cast<const std::uint16_t*>(image.storage.data() + y * image.stride);
      for (std::size_t i = 0; i < image.width * channel_count(image.format.layout); ++i) {
        out.push_back(row[i]);
      }
    }
    return out;
  };
  struct Case {
    std::string name, bytes;
    ChannelLayout layout;
    std::vector<std::uint32_t> expected;
  };
  const std::vector<std::uint32_t> ten_bit = {0, 1, 511, 512, 1022, 1023};
  std::vector<std::uint32_t> ten_bit_scaled;
  for (const std::uint32_t v : ten_bit) ten_bit_scaled.push_back(v * 65535 / 1023);
  const Case cases[] = {
      {"grey.pgm", "P5\n# a comment\n9 1\n65535\n" + big_endian(values), ChannelLayout::Grey,
       values},
      {"rgb.ppm", "P6 3 1 65535\n" + big_endian(values), ChannelLayout::RGB, values},
      {"ascii.pgm", "P2\n3 3\n65535\n" + text(values), ChannelLayout::Grey, values},
      {"ascii.ppm", "P3\n1 3 # three rows\n65535\n" + text(values), ChannelLayout::RGB, values},
      {"ten.pgm", "P5\n3 2\n1023\n" + big_endian(ten_bit), ChannelLayout::Grey, ten_bit_scaled},
      // oiiotool --dumpdata: 55104 (55104.5 rounded down), 65535.
      {"odd.pgm", "P5\n2 1\n999\n" + big_endian({840, 999}), ChannelLayout::Grey, {55104, 65535}},
  };
  for (const Case& c : cases) {
    const fs::path path = dir_ / c.name;
    std::ofstream(path, std::ios::binary) << c.bytes;
    const Image image = load_image(path);
    EXPECT_EQ(image.format, (PixelFormat{c.layout, SampleType::U16})) << c.name;
    EXPECT_EQ(samples_of(image), c.expected) << c.name;
  }
}

// A GIF of random pixels as gpuhist writes one (equalized, each channel
// apart; its writer declares a transparent colour), in `dir`.
fs::path gif_of_random_pixels(const fs::path& dir, const std::string& name, std::uint32_t width,
                              std::uint32_t height, unsigned seed) {
  const test::TestImage rgb = test::make_image({ChannelLayout::RGB, SampleType::U8}, width, height,
                                               test::Content::Random, seed);
  const fs::path png = dir / "source.png";
  save_image(png, rgb.view);
  const fs::path gif = dir / name;
  const auto r = test::run_cli(
      {"equalize", png.string(), "-o", gif.string(), "--device", "cpu", "--channels", "each"});
  EXPECT_EQ(r.status, 0) << r.err;
  return gif;
}

// The image library gives every GIF four channels; a GIF whose first
// picture declares no transparent colour (its Graphic Control Extension's
// flag clear) is RGB, its pixels those of the same GIF with the flag set.
TEST_F(ImageFiles, GifsWithoutATransparentColourAreRgb) {
  const fs::path transparent = gif_of_random_pixels(dir_, "transparent.gif", 30, 20, 3);
  std::string bytes = test::file_text(transparent);
  const std::size_t gce = bytes.find("\x21\xF9\x04");
  ASSERT_NE(gce, std::string::npos);
  ASSERT_EQ(bytes[gce + 3] & 1, 1);  // the writer declares a transparent colour
  bytes[gce + 3] = static_cast<char>(bytes[gce + 3] & ~1);
  const fs::path opaque = dir_ / "opaque.gif";
  std::ofstream(opaque, std::ios::binary) << bytes;
  LoadOptions with_alpha;
  with_alpha.alpha = true;
  const Image four = load_image(transparent, with_alpha);
  const Image three = load_image(opaque, with_alpha);
  EXPECT_EQ(four.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U8}));
  EXPECT_EQ(three.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  EXPECT_FALSE(three.alpha);
  for (std::uint32_t y = 0; y < three.height; ++y) {
    for (std::uint32_t x = 0; x < three.width; ++x) {
      ASSERT_EQ(std::memcmp(three.view().row(y) + x * 3, four.view().row(y) + x * 4, 3), 0)
          << x << "," << y;
    }
  }
  const auto compute = test::run_cli({"compute", opaque.string(), "--device", "cpu"});
  ASSERT_EQ(compute.status, 0) << compute.err;
  EXPECT_NE(compute.out.find("rgb8  256 bins"), std::string::npos) << compute.out;
  // A first image smaller than the screen leaves the rest of the frame
  // transparent, as the library reads it, with no transparent colour.
  bytes[6] = static_cast<char>(32);  // a 32-pixel wide screen for the 30-pixel image
  const fs::path partial = dir_ / "partial.gif";
  std::ofstream(partial, std::ios::binary) << bytes;
  const Image wider = load_image(partial, with_alpha);
  EXPECT_EQ(wider.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U8}));
  EXPECT_EQ(wider.width, 32U);
  // A note says so: pixels that hold no colour of the file are counted.
  ASSERT_EQ(wider.notes.size(), 1U);
  EXPECT_EQ(wider.notes[0],
            "its first picture covers 30x20 of its 32x20 screen: the other 40 pixels, which hold "
            "no colour of the file, are counted as transparent black");
  EXPECT_TRUE(three.notes.empty());
}

// A GIF's transparent pixels hold the colour its palette gives their index,
// as a PNG's palette and tRNS do (the image library reads them as black),
// and its alpha is alpha: no note says it is left out. 2x2 pixels of
// indices 0..3, the last transparent, coded with a clear code before each.
TEST_F(ImageFiles, AGifsTransparentPixelsHoldTheirPalettesColour) {
  const fs::path gif = dir_ / "transparent.gif";
  std::ofstream(gif, std::ios::binary) << std::string(
      "GIF89a\x02\x00\x02\x00\x81\x00\x00"                // screen, 4 colours
      "\x0A\x14\x1E\xC8\x00\x00\x00\xC8\x00\x00\x00\xFA"  // the palette
      "\x21\xF9\x04\x01\x00\x00\x03\x00"                  // index 3 transparent
      "\x2C\x00\x00\x00\x00\x02\x00\x02\x00\x00"          // the picture, 2x2
      "\x02\x04\x04\x43\x71\x05\x00\x3B",
      52);
  LoadOptions with_alpha;
  with_alpha.alpha = true;
  const Image rgba = load_image(gif, with_alpha);
  ASSERT_EQ(rgba.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U8}));
  const std::vector<std::uint8_t> want = {10, 20,  30, 255, 200, 0, 0,   255,
                                          0,  200, 0,  255, 0,   0, 250, 0};
  const auto bytes = [](const Image& image, std::uint32_t y, std::size_t n) {
    const auto* row = reinterpret_cast<const std::uint8_t*>(image.view().row(y));
    return std::vector<std::uint8_t>(row, row + n);
  };
  const std::vector<std::uint8_t> got = bytes(rgba, 0, 8);
  const std::vector<std::uint8_t> second = bytes(rgba, 1, 8);
  EXPECT_EQ(got, std::vector<std::uint8_t>(want.begin(), want.begin() + 8));
  EXPECT_EQ(second, std::vector<std::uint8_t>(want.begin() + 8, want.end()));
  EXPECT_TRUE(rgba.notes.empty()) << rgba.notes.front();
  const Image rgb = load_image(gif);
  ASSERT_EQ(rgb.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  EXPECT_EQ(bytes(rgb, 1, 6), (std::vector<std::uint8_t>{0, 200, 0, 0, 0, 250}));
  EXPECT_TRUE(rgb.alpha);
  EXPECT_TRUE(rgb.notes.empty()) << rgb.notes.front();
  // On a screen twice as wide, the part the picture does not cover holds no
  // colour of the file: it stays as the library reads it.
  std::string wide = test::file_text(gif);
  wide[6] = '\x04';
  std::ofstream(dir_ / "wide.gif", std::ios::binary) << wide;
  const Image screen = load_image(dir_ / "wide.gif", with_alpha);
  ASSERT_EQ(screen.width, 4U);
  EXPECT_EQ(bytes(screen, 1, 16),
            (std::vector<std::uint8_t>{0, 200, 0, 255, 0, 0, 250, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

// A GIF's first picture whose LZW codes do not decode: giflib decodes a
// code past its table as if it were in it, making pixels up in silence; such
// a file is refused, as FFmpeg's decoder refuses it. So is one whose codes
// end before its last pixel. Intact ones read as before.
TEST_F(ImageFiles, GifsWhoseCodesDoNotDecodeAreRefused) {
  const fs::path gif = gif_of_random_pixels(dir_, "whole.gif", 300, 200, 5);
  // FFmpeg's decoder says so, and decodes on (status 0).
  const auto ffmpeg_says = [](const fs::path& path) {
    return test::command_output("ffmpeg -nostdin -v warning -i '" + path.string() +
                                "' -f null - 2>&1");
  };
  EXPECT_EQ(ffmpeg_says(gif), "");
  EXPECT_EQ(load_image(gif).width, 300U);
  const std::string bytes = test::file_text(gif);
  const auto write_file = [&](const std::string& name, const std::string& data) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(data.data(), static_cast<std::streamsize>(data.size()));
    return dir_ / name;
  };
  // Two bytes of its coded data flipped, a fifth of the way in.
  std::string flipped = bytes;
  for (std::size_t at = bytes.size() / 5; at < bytes.size() / 5 + 2; ++at) {
    flipped[at] = static_cast<char>(flipped[at] ^ 0xFF);
  }
  const fs::path damaged = write_file("damaged.gif", flipped);
  EXPECT_NE(ffmpeg_says(damaged).find("LZW decode failed"), std::string::npos);
  expect_refused(damaged,
                 "damaged.gif: corrupt image: the first picture's coded data does not "
                 "decode (an LZW code past its table after ");
  expect_refused(write_file("cut.gif", bytes.substr(0, bytes.size() / 2)),
                 "cut.gif: corrupt or truncated image: the first picture's coded data ends after ");

  // By hand: 2x2 pixels of 4 colours, 3-bit codes. Clear (4), 0, then 7,
  // past the table's next code (6).
  const std::string head = std::string(
      "GIF89a\x02\x00\x02\x00\x81\x00\x00"                // screen, 4 colours
      "\x0A\x14\x1E\xC8\x00\x00\x00\xC8\x00\x00\x00\xFA"  // the palette
      "\x2C\x00\x00\x00\x00\x02\x00\x02\x00\x00\x02",     // the picture, 2x2; 2-bit
      36);
  expect_refused(write_file("past.gif", head + std::string("\x02\xC4\x0B\x00\x3B", 5)),
                 "past.gif: corrupt image: the first picture's coded data does not decode (an "
                 "LZW code past its table after 1 of its 4 pixels)");
  // Clear, 0, 1, 2, then the end code (5, in 4 bits once the table reached 8): one pixel short.
  expect_refused(write_file("short.gif", head + std::string("\x02\x44\x54\x00\x3B", 5)),
                 "short.gif: corrupt image: the first picture's coded data ends after 3 of its 4 "
                 "pixels");
  // A minimum code size of 1 (two colours): its codes widen to 3 bits after
  // the first code, as giflib's do. Clear (2), 0, then 1, 0, 1, end in 3 bits.
  const Image two = load_image(
      write_file("two.gif", std::string("GIF89a\x02\x00\x02\x00\x80\x00\x00"  // screen, 2 colours
                                        "\x0A\x14\x1E\xC8\x00\x00"            // the palette
                                        "\x2C\x00\x00\x00\x00\x02\x00\x02\x00\x00\x01"
                                        "\x02\x12\x64\x00\x3B",
                                        35)));
  EXPECT_EQ(test::pixel_bytes_of(two.view()),
            (std::vector<std::byte>{std::byte{10}, std::byte{20}, std::byte{30}, std::byte{200},
                                    std::byte{0}, std::byte{0}, std::byte{10}, std::byte{20},
                                    std::byte{30}, std::byte{200}, std::byte{0}, std::byte{0}}));
  // Clear, 0, 1, 2, 3, end: whole.
  const Image whole =
      load_image(write_file("four.gif", head + std::string("\x03\x44\x34\x05\x00\x3B", 6)));
  EXPECT_EQ(test::pixel_bytes_of(whole.view()),
            (std::vector<std::byte>{std::byte{10}, std::byte{20}, std::byte{30}, std::byte{200},
                                    std::byte{0}, std::byte{0}, std::byte{0}, std::byte{200},
                                    std::byte{0}, std::byte{0}, std::byte{0}, std::byte{250}}));
}

TEST_F(ImageFiles, AlphaIsIgnored) {
  const auto image =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 20, 10, test::Content::Random);
  const Image loaded = load_image(write("rgba.png", image, OIIO::TypeDesc::UINT8));
  EXPECT_EQ(loaded.format.layout, ChannelLayout::RGB);
  const Context context = Context::open("cpu");
  const Histogram a = context.compute(loaded.view());
  const Histogram b = context.compute(image.view);
  EXPECT_TRUE(test::same_histograms(a, b));
}

// Channels neither counted nor alpha, and integer samples the library reads as
// scaled floats, are said in the image's notes; alpha and 8/16-bit samples are not.
TEST_F(ImageFiles, ChannelsLeftOutAndScaledSamplesAreNoted) {
  const auto write_raw = [&](const std::string& name, int channels, OIIO::TypeDesc type,
                             const std::vector<std::string>& names, int alpha,
                             const void* samples) {
    const fs::path path = dir_ / name;
    auto out = OIIO::ImageOutput::create(path.string());
    EXPECT_TRUE(out) << OIIO::geterror();
    OIIO::ImageSpec spec(4, 2, channels, type);
    spec.channelnames = names;
    spec.alpha_channel = alpha;
    EXPECT_TRUE(out->open(path.string(), spec)) << out->geterror();
    EXPECT_TRUE(out->write_image(type, samples)) << out->geterror();
    out->close();
    return path;
  };
  std::vector<float> floats(4 * 2 * 5);
  for (std::size_t i = 0; i < floats.size(); ++i) floats[i] = static_cast<float>(i % 7) / 8;
  // An OpenEXR of R, G, B, A and depth: RGB counted, Z named as left out.
  const Image rgbaz = load_image(write_raw("rgbaz.exr", 5, OIIO::TypeDesc::FLOAT,
                                           {"R", "G", "B", "A", "Z"}, 3, floats.data()));
  EXPECT_EQ(rgbaz.format.layout, ChannelLayout::RGB);
  EXPECT_TRUE(rgbaz.alpha);
  ASSERT_EQ(rgbaz.notes.size(), 1U);
  EXPECT_EQ(rgbaz.notes[0], "its channel Z is not counted (R, G, B counted as RGB)");
  // Two channels, the second not alpha: the first counted as grey, the second named.
  const Image rg =
      load_image(write_raw("rg.exr", 2, OIIO::TypeDesc::FLOAT, {"R", "G"}, -1, floats.data()));
  EXPECT_EQ(rg.format.layout, ChannelLayout::Grey);
  EXPECT_FALSE(rg.alpha);
  ASSERT_EQ(rg.notes.size(), 1U);
  EXPECT_EQ(rg.notes[0], "its channel G is not counted (R counted as grey)");
  // Alpha as the second of three channels: grey (with alpha), the third named; as the
  // third, after two colour channels, neither grey nor RGB: refused (it was counted as
  // blue).
  const Image yaz =
      load_image(write_raw("yaz.exr", 3, OIIO::TypeDesc::FLOAT, {"Y", "A", "Z"}, 1, floats.data()));
  EXPECT_EQ(yaz.format.layout, ChannelLayout::Grey);
  EXPECT_TRUE(yaz.alpha);
  const fs::path rba =
      write_raw("rba.exr", 3, OIIO::TypeDesc::FLOAT, {"R", "B", "A"}, 2, floats.data());
  expect_refused(rba, "its third channel is alpha, after two colour channels");
  // Grey and alpha, RGBA: nothing to say.
  const std::vector<std::uint16_t> words(4 * 2 * 4, 40000);
  EXPECT_TRUE(
      load_image(write_raw("ya.png", 2, OIIO::TypeDesc::UINT16, {"Y", "A"}, 1, words.data()))
          .notes.empty());
  EXPECT_TRUE(load_image(write_raw("rgba.tif", 4, OIIO::TypeDesc::UINT16, {"R", "G", "B", "A"}, 3,
                                   words.data()))
                  .notes.empty());
  // int16 samples: floats with 32767 as 1.0, said so.
  const std::vector<std::int16_t> shorts = {-5, 0, 32767, 16384, 1, 2, 3, 4};
  const Image signed16 =
      load_image(write_raw("i16.tif", 1, OIIO::TypeDesc::INT16, {"Y"}, -1, shorts.data()));
  EXPECT_EQ(signed16.format, (PixelFormat{ChannelLayout::Grey, SampleType::F32}));
  const auto* row = reinterpret_cast<const float*>(signed16.view().row(0));
  EXPECT_FLOAT_EQ(row[2], 1.0F);
  EXPECT_LT(row[0], 0.0F);
  ASSERT_EQ(signed16.notes.size(), 1U);
  EXPECT_EQ(signed16.notes[0],
            "int16 samples are counted as floats scaled to 32767 = 1.0, values below 0 in the "
            "lowest bin (only 8- and 16-bit unsigned samples are counted as stored)");
}

// Lossy formats decode to 8-bit RGB of the written size.
TEST_F(ImageFiles, LossyFormatsDecode) {
  const auto image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 64, 48, test::Content::Gradient);
  for (const char* name : {"lossy.jpg", "lossy.webp"}) {
    const Image loaded = load_image(write(name, image, OIIO::TypeDesc::UINT8));
    EXPECT_EQ(loaded.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8})) << name;
    EXPECT_EQ(loaded.width, 64U);
    EXPECT_EQ(loaded.height, 48U);
  }
}

// A palette PNG counts its expanded colours.
TEST_F(ImageFiles, PalettePng) {
  const Image loaded = load_image(fs::path(GPUHIST_SOURCE_DIR) / "tests/data/palette_color.png");
  EXPECT_EQ(loaded.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  const Histogram h = Context::open("cpu").compute(loaded.view());
  EXPECT_EQ(h.total(Channel::Red), 100U);
  // Bins that hold pixels are palette entries' values, not palette indices.
  std::uint32_t nonzero = 0;
  for (std::uint64_t count : h.counts(Channel::Red)) nonzero += count != 0 ? 1 : 0;
  EXPECT_GE(nonzero, 2U);
  EXPECT_GT(
      h.counts(Channel::Red)[255] + h.counts(Channel::Green)[255] + h.counts(Channel::Blue)[255],
      0U);
}

// Every way rows reach the image (straight into padded rows; through a
// buffer of a few rows, converted, a channel subset, per-channel types, a data
// window off the origin, rows in several chunks; tiles) gives the samples
// OpenImageIO's own whole-image read gives, value for value.
TEST_F(ImageFiles, RowsEqualTheImageLibrarysOwnRead) {
  struct Case {
    std::string name;
    int width, height, channels;
    OIIO::TypeDesc stored;
    std::vector<OIIO::TypeDesc> per_channel;
    int x = 0, y = 0, tile = 0;
    bool alpha = false;
    std::string subsampling = {};  // JPEG's chroma subsampling
    bool progressive = false;      // a progressive JPEG
  };
  using T = OIIO::TypeDesc;
  const std::vector<Case> cases = {
      {"rgb8-odd.png", 37, 23, 3, T::UINT8, {}},    // read in place
      {"rgb8-odd.jpg", 333, 101, 3, T::UINT8, {}},  // JPEGs: decoded by libjpeg itself
      {"grey8.jpg", 45, 31, 1, T::UINT8, {}},
      {"rgb8-422.jpg", 101, 77, 3, T::UINT8, {}, 0, 0, 0, false, "4:2:2"},
      {"rgb8-411.jpg", 83, 9, 3, T::UINT8, {}, 0, 0, 0, false, "4:1:1"},
      {"rgb8-444-progressive.jpg", 64, 33, 3, T::UINT8, {}, 0, 0, 0, false, "4:4:4", true},
      {"rgb8-420-progressive.jpg", 1, 1, 3, T::UINT8, {}, 0, 0, 0, false, "4:2:0", true},
      {"rgba8.png", 41, 17, 4, T::UINT8, {}},  // RGB out of RGBA
      {"rgba8-alpha.png", 41, 17, 4, T::UINT8, {}, 0, 0, 0, true},
      {"grey-alpha16.png", 29, 13, 2, T::UINT16, {}},  // grey out of grey + alpha
      {"rgb-half.exr", 53, 21, 3, T::HALF, {}},        // half to float
      {"mixed.exr", 53, 21, 3, T::FLOAT, {T::HALF, T::FLOAT, T::HALF}},
      {"window.exr", 30, 20, 3, T::HALF, {}, 7, -5},    // data window off the origin
      {"half-chunks.exr", 1100, 2000, 3, T::HALF, {}},  // 13 MB: converted in four chunks
      {"rgbf-packed.tif", 300, 200, 3, T::FLOAT, {}},   // packed rows in one call
      {"rgb16-tiled.tif", 70, 50, 3, T::UINT16, {}, 0, 0, 16},
      {"grey10.dpx", 64, 9, 3, T::UINT16, {}},
  };
  std::mt19937 random(5);
  for (const Case& c : cases) {
    const fs::path path = dir_ / c.name;
    OIIO::ImageSpec spec(c.width, c.height, c.channels, c.stored);
    spec.x = c.x;
    spec.y = c.y;
    spec.full_x = 0;
    spec.full_y = 0;
    spec.channelformats = c.per_channel;
    if (c.tile > 0) spec.tile_width = spec.tile_height = c.tile;
    if (c.name.find(".dpx") != std::string::npos) spec.attribute("oiio:BitsPerSample", 10);
    if (!c.subsampling.empty()) spec.attribute("jpeg:subsampling", c.subsampling);
    if (c.progressive) spec.attribute("jpeg:progressive", 1);
    spec.attribute("oiio:UnassociatedAlpha", 1);
    std::vector<float> values(static_cast<std::size_t>(c.width) * c.height * c.channels);
    for (float& v : values) v = static_cast<float>(random() % 1000) / 999.0f;
    {
      auto out = OIIO::ImageOutput::create(path.string());
      ASSERT_TRUE(out && out->open(path.string(), spec)) << c.name << OIIO::geterror();
      ASSERT_TRUE(out->write_image(T::FLOAT, values.data())) << c.name << out->geterror();
      out->close();
    }
    LoadOptions options;
    options.alpha = c.alpha;
    const Image loaded = load_image(path, options);
    ASSERT_EQ(loaded.width, static_cast<std::uint32_t>(c.width)) << c.name;
    const int channels = static_cast<int>(channel_count(loaded.format.layout));
    const T wanted = loaded.format.sample == SampleType::U8    ? T::UINT8
                     : loaded.format.sample == SampleType::U16 ? T::UINT16
                                                               : T::FLOAT;
    OIIO::ImageSpec config;  // as gpuhist reads: samples as stored, alpha not applied
    config.attribute("oiio:UnassociatedAlpha", 1);
    auto in = OIIO::ImageInput::open(path.string(), &config);
    ASSERT_TRUE(in) << c.name;
    const std::size_t row_bytes = static_cast<std::size_t>(c.width) * channels * wanted.size();
    std::vector<std::byte> expected(row_bytes * c.height);
    ASSERT_TRUE(in->read_image(0, 0, 0, channels, wanted, expected.data())) << c.name;
    for (int y = 0; y < c.height; ++y) {
      ASSERT_EQ(std::memcmp(loaded.storage.data() + y * loaded.stride,
                            expected.data() + y * row_bytes, row_bytes),
                0)
          << c.name << " row " << y << " (" << to_string(loaded.format) << ")";
    }
  }
}

// OpenEXR headers are walked as OpenEXR walks them before it sees the file:
// files with string and float-vector metadata, and files of several parts,
// read as before; a part whose data window is over the limit, and a value that does
// not fill its stated length (a fuzzed file made OpenEXR ask for 1.9 GB), are
// refused naming the cause.
TEST_F(ImageFiles, OpenExrHeadersAreCheckedPartByPart) {
  using T = OIIO::TypeDesc;
  const fs::path tagged = dir_ / "tagged.exr";
  {
    OIIO::ImageSpec spec(16, 8, 3, T::HALF);
    spec.attribute("comments", "a string");
    const float values[] = {1.5f, 2.5f, 3.5f, 4.5f};
    spec.attribute("values", T(T::FLOAT, 4), values);
    spec.attribute("oiio:UnassociatedAlpha", 1);
    auto out = OIIO::ImageOutput::create(tagged.string());
    ASSERT_TRUE(out && out->open(tagged.string(), spec)) << OIIO::geterror();
    std::vector<float> pixels(16 * 8 * 3, 0.25f);
    ASSERT_TRUE(out->write_image(T::FLOAT, pixels.data()));
    out->close();
  }
  EXPECT_EQ(load_image(tagged).width, 16U);
  // Two parts; the second's data window over the limit the first is within.
  const fs::path parts = dir_ / "parts.exr";
  {
    OIIO::ImageSpec specs[2] = {OIIO::ImageSpec(16, 8, 3, T::HALF),
                                OIIO::ImageSpec(64, 64, 3, T::HALF)};
    specs[0].full_width = specs[0].full_height = 64;  // parts share their display window
    specs[0].attribute("name", "first");
    specs[1].attribute("name", "second");
    auto out = OIIO::ImageOutput::create(parts.string());
    ASSERT_TRUE(out && out->supports("multiimage"));
    ASSERT_TRUE(out->open(parts.string(), 2, specs)) << out->geterror();
    std::vector<float> small(16 * 8 * 3, 0.5f), large(64 * 64 * 3, 0.75f);
    ASSERT_TRUE(out->write_image(T::FLOAT, small.data()));
    ASSERT_TRUE(out->open(parts.string(), specs[1], OIIO::ImageOutput::AppendSubimage));
    ASSERT_TRUE(out->write_image(T::FLOAT, large.data()));
    out->close();
  }
  const Image first = load_image(parts);
  EXPECT_EQ(first.width, 16U);
  EXPECT_TRUE(first.more_pages);
  try {
    (void)load_image(parts, LoadOptions{1000});
    FAIL() << "a second part of 64x64 is over 1000 pixels";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("64x64 pixels"), std::string::npos) << e.what();
  }
  const fs::path short_list =
      fs::path(GPUHIST_SOURCE_DIR) / "tests/fuzz/regressions/exr-chlist-short-1.9GB-alloc.exr";
  try {
    (void)load_image(short_list);
    FAIL() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find(
                  "its OpenEXR attribute 'channels' of type chlist does not fill its 55 bytes"),
              std::string::npos)
        << e.what();
  }
}

// A one-pixel OpenEXR file (one half channel R, no compression) built byte by
// byte, with `extra` (whole attributes) before the end of its header.
std::string tiny_exr(const std::string& extra) {
  std::string h("\x76\x2f\x31\x01\x02\x00\x00\x00", 8);
  const auto attribute = [&](const std::string& name, const std::string& type,
                             const std::string& value) {
    h += name + '\0' + type + '\0';
    const auto n = static_cast<std::uint32_t>(value.size());
    h += std::string{static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                     static_cast<char>(n >> 24)};
    h += value;
  };
  const std::string one("\x01\x00\x00\x00", 4), zero4(4, '\0');
  attribute("channels", "chlist", std::string("R\0", 2) + one + zero4 + one + one + '\0');
  attribute("compression", "compression", std::string(1, '\0'));
  attribute("dataWindow", "box2i", std::string(16, '\0'));
  attribute("displayWindow", "box2i", std::string(16, '\0'));
  attribute("lineOrder", "lineOrder", std::string(1, '\0'));
  attribute("pixelAspectRatio", "float", std::string("\x00\x00\x80\x3f", 4));
  attribute("screenWindowCenter", "v2f", std::string(8, '\0'));
  attribute("screenWindowWidth", "float", std::string("\x00\x00\x80\x3f", 4));
  h += extra;
  h += '\0';  // the end of the header
  const std::uint64_t chunk = h.size() + 8;  // one offset, then the one chunk
  for (int i = 0; i < 8; ++i) h += static_cast<char>(chunk >> (8 * i));
  h += zero4 + std::string("\x02\x00\x00\x00", 4) + std::string("\x00\x3c", 2);  // y 0, 2 bytes: 1.0
  return h;
}

// An ID manifest is read by OpenEXR 3.1 as a 64-bit size and then its stated
// length less 4 bytes, 4 more than stated: the walk of the header follows it
// there, and refuses one too short to hold the size (a crafted file could
// otherwise make OpenEXR read the next attribute out of step and allocate
// gigabytes).
TEST_F(ImageFiles, OpenExrIdManifestsAreWalkedAsOpenExrReadsThem) {
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  };
  const Image plain = load_image(write("plain.exr", tiny_exr("")));
  EXPECT_EQ(plain.width, 1U);
  // The crafted case: a 4-byte manifest, then what the walk and OpenEXR would
  // each take for the next attribute.
  const std::string crafted = std::string("m\0idmanifest\0", 13) + std::string("\x04\0\0\0", 4) +
                              std::string(4, '\0') + std::string("ABC\0x\0", 6) +
                              std::string("\x10\0\0\0\0\0\0\x70", 8) + std::string(14, 'q');
  try {
    (void)load_image(write("crafted.exr", tiny_exr(crafted)));
    FAIL() << "read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("attribute 'm' of type idmanifest does not fill its 4 bytes"),
              std::string::npos)
        << e.what();
  }
  // A manifest as OpenEXR writes it: a 64-bit size, then the data, all of its
  // stated length. The file reads, so the walk and the reader (OpenEXRCore)
  // agree on where the header ends.
  const std::string manifest = std::string("m\0idmanifest\0", 13) + std::string("\x0a\0\0\0", 4) +
                               std::string(8, '\0') + std::string("xy", 2);
  EXPECT_EQ(load_image(write("manifest.exr", tiny_exr(manifest))).width, 1U);
  // The same with B44 coding (6), which OpenEXRCore misreads and the C++
  // reader, which misreads manifests, would get: refused, before any decoding.
  std::string b44 = tiny_exr(manifest);
  const std::string coding = std::string("compression\0compression\0\x01\0\0\0", 28);
  const std::size_t at = b44.find(coding);
  ASSERT_NE(at, std::string::npos);
  b44[at + coding.size()] = '\x06';
  expect_refused(write("manifest-b44.exr", b44),
                 "unsupported image: an OpenEXR file of B44 or DWA coding with an ID manifest");
}

TEST_F(ImageFiles, BadFilesThrowInputErrors) {
  const fs::path photo = fs::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg";
  const auto truncate = [&](const fs::path& src, const std::string& name, std::size_t bytes) {
    std::ifstream in(src, std::ios::binary);
    std::string data(bytes, '\0');
    in.read(data.data(), static_cast<std::streamsize>(bytes));
    std::ofstream(dir_ / name, std::ios::binary)
        .write(data.data(), static_cast<std::streamsize>(bytes));
    return dir_ / name;
  };
  std::ofstream(dir_ / "empty.png").close();
  std::ofstream(dir_ / "text.png") << "not a png at all";
  std::ofstream(dir_ / "notes.xyz") << "plain text";
  const fs::path cases[] = {
      dir_ / "missing.png",
      dir_ / "empty.png",
      dir_ / "text.png",
      dir_ / "notes.xyz",
      truncate(photo, "half.jpg", 40000),
      truncate(fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png", "half.png", 200000),
      truncate(fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png", "header.png", 60),
      dir_,
  };
  for (const fs::path& path : cases) {
    try {
      (void)load_image(path);
      ADD_FAILURE() << path << " loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input) << path;
      EXPECT_NE(std::string(e.what()).find(path.filename().string()), std::string::npos)
          << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  // A TIFF cut before its directory (which writers that stream the pixels first put
  // last) says it was cut short: the header points past the end.
  std::string cut("II*\0\xe8\x03\0\0", 8);  // the directory at byte 1000
  cut += std::string(200, '\x40');          // pixels, then the cut
  std::ofstream(dir_ / "cut.tif", std::ios::binary) << cut;
  expect_refused(dir_ / "cut.tif",
                 "corrupt or truncated image: its first TIFF directory, at byte 1000, runs past "
                 "the end of the file (208 bytes)");
  // A binary PNM cut short says how short, where the library says "unknown decoder error".
  std::ofstream(dir_ / "cut.ppm", std::ios::binary) << "P6\n# cut\n20 10\n65535\n"
                                                    << std::string(700, '\x10');
  // So does a WebP, by its RIFF header, where the library says "Couldn't decode".
  {
    const auto webp_source =
        test::make_image({ChannelLayout::RGB, SampleType::U8}, 40, 30, test::Content::Random, 6);
    const fs::path whole = write("whole.webp", webp_source, OIIO::TypeDesc::UINT8);
    const std::uintmax_t size = fs::file_size(whole);
    const fs::path cut_webp = truncate(whole, "cut.webp", size / 2);
    expect_refused(cut_webp, "corrupt or truncated image: its RIFF header says " +
                                 std::to_string(size) + " bytes, and the file has " +
                                 std::to_string(size / 2));
  }
  expect_refused(dir_ / "cut.ppm",
                 "corrupt or truncated image: its 20x10 raster takes 1200 bytes after its header, "
                 "and the file has 700");
  // A PBM of packed bits, and a PFM of floats after its scale, the same.
  std::ofstream(dir_ / "cut.pbm", std::ios::binary) << "P4\n20 10\n" << std::string(6, '\x10');
  expect_refused(dir_ / "cut.pbm",
                 "corrupt or truncated image: its 20x10 raster takes 30 bytes after its header, "
                 "and the file has 6");
  std::ofstream(dir_ / "cut.pfm", std::ios::binary) << "PF\n5 3\n-1.0\n" << std::string(100, '\0');
  expect_refused(dir_ / "cut.pfm",
                 "corrupt or truncated image: its 5x3 raster takes 180 bytes after its header, "
                 "and the file has 100");
  // A maximum value outside the format's 1..65535, which the library read
  // all the same (every sample its brightest).
  std::ofstream(dir_ / "zero.ppm", std::ios::binary) << "P6 2 2 0\n" << std::string(12, '\x10');
  expect_refused(dir_ / "zero.ppm", "corrupt image: its maximum value is 0, not one of 1 to 65535");
  std::ofstream(dir_ / "big.pgm", std::ios::binary) << "P5 2 1 70000\n" << std::string(4, '\xFF');
  expect_refused(dir_ / "big.pgm",
                 "corrupt image: its maximum value is 70000, not one of 1 to 65535");
  std::ofstream(dir_ / "huge.pgm", std::ios::binary) << "P2 2 1 99999999999999999999\n1 2\n";
  expect_refused(dir_ / "huge.pgm", "corrupt image: its maximum value is over 65535");
}

// A grey Targa with alpha (its descriptor's alpha bits set) is grey with
// alpha, not two channels of which the second is left out with a note.
TEST_F(ImageFiles, AGreyTargaWithAlphaIsGreyAndAlpha) {
  // Uncompressed grey (type 3), 16 bits a pixel, 8 of them alpha, rows from the top.
  std::string tga = std::string("\0\0\x03", 3) + std::string(9, '\0');
  tga += std::string("\x03\x00\x02\x00\x10\x28", 6);  // 3x2, 16 bits, 8 alpha, top first
  for (int i = 0; i < 6; ++i) tga += std::string{static_cast<char>(40 * i), '\x80'};
  std::ofstream(dir_ / "la.tga", std::ios::binary) << tga;
  const Image grey = load_image(dir_ / "la.tga");
  EXPECT_EQ(grey.format, (PixelFormat{ChannelLayout::Grey, SampleType::U8}));
  EXPECT_TRUE(grey.alpha);
  EXPECT_TRUE(grey.notes.empty()) << grey.notes.front();
  EXPECT_EQ(static_cast<int>(grey.view().row(1)[2]), 200);
}

// `image` (8-bit RGB) as a JPEG of libjpeg's defaults, `tune` changing them.
std::string libjpeg_encode(const ImageView& image,
                           const std::function<void(jpeg_compress_struct&)>& tune) {
  jpeg_compress_struct info{};
  jpeg_error_mgr errors{};
  info.err = jpeg_std_error(&errors);
  jpeg_create_compress(&info);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&info, &out, &size);
  info.image_width = image.width;
  info.image_height = image.height;
  // Four channels are written as CMYK (libjpeg adds Adobe's marker).
  const bool inks = image.format.layout == ChannelLayout::RGBA;
  info.input_components = inks ? 4 : 3;
  info.in_color_space = inks ? JCS_CMYK : JCS_RGB;
  jpeg_set_defaults(&info);
  tune(info);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    auto* row = const_cast<JSAMPROW>(static_cast<const JSAMPLE*>(image.data) +
                                     std::size_t{info.next_scanline} * image.stride);
    (void)jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  std::string bytes(reinterpret_cast<const char*>(out), size);
  std::free(out);
  return bytes;
}

// `image` (8-bit RGB) as a baseline JPEG with a restart marker every
// `interval` MCUs, which the image library's writer does not write.
std::string jpeg_with_restarts(const ImageView& image, unsigned interval, bool arithmetic = false) {
  return libjpeg_encode(image, [&](jpeg_compress_struct& info) {
    jpeg_set_quality(&info, 90, TRUE);
    info.restart_interval = interval;
    info.arith_code = arithmetic ? TRUE : FALSE;
  });
}

// A black-and-white TIFF of 13x3 pixels with no compression, little- or
// big-endian, made by hand, its bits from `bits` (a row in two bytes, the
// first pixel the top bit); with BitsPerSample = 1 written, or left to its
// default, which is 1 (TIFF 6.0; Pillow writes black-and-white images so).
std::string one_bit_tiff(bool little, bool with_bits, const std::array<unsigned char, 6>& bits) {
  test::TiffBuilder b(little);
  b.field(256, 3, {13}).field(257, 3, {3});
  if (with_bits) b.field(258, 3, {1});
  b.field(259, 3, {1}).field(262, 3, {1});  // no compression; 0 is black
  b.offsets(273, {b.blob(std::string(bits.begin(), bits.end()))}).field(279, 4, {6});
  return b.build();
}

// TIFFs of colour spaces libtiff converts: CIE L*a*b* is read as the 8-bit
// RGB it gives, said in a note whatever the samples' depth (16 here); Y'CbCr
// of 16 bits, which it refuses with no cause, is refused saying why.
TEST_F(ImageFiles, LabTiffsSayTheirConversionAndDeepYCbCrIsRefused) {
  const auto tiff = [](std::uint64_t photometric) {
    test::TiffBuilder b;
    b.field(256, 3, {2}).field(257, 3, {2}).field(258, 3, {16, 16, 16});
    b.field(259, 3, {1}).field(262, 3, {photometric});
    b.offsets(273, {b.blob(std::string(24, '\x40'))});
    b.field(277, 3, {3}).field(278, 3, {2}).field(279, 4, {24}).field(284, 3, {1});
    if (photometric == 6) b.field(530, 3, {1, 1});
    return b.build();
  };
  const fs::path lab = dir_ / "lab16.tif";
  std::ofstream(lab, std::ios::binary) << tiff(8);
  const Image read = load_image(lab);
  EXPECT_EQ(read.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  ASSERT_EQ(read.notes.size(), 1U);
  EXPECT_EQ(read.notes[0],
            "its L*a*b* samples are read as the 8-bit RGB the image library converts them to");
  const fs::path ycc = dir_ / "ycc16.tif";
  std::ofstream(ycc, std::ios::binary) << tiff(6);
  try {
    (void)load_image(ycc);
    FAIL() << "a 16-bit Y'CbCr TIFF was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find(
                  "cannot read image: a Y'CbCr TIFF of 16-bit samples, which the image library "
                  "does not read"),
              std::string::npos)
        << e.what();
  }
}

// A TIFF of 1-bit samples that leaves BitsPerSample to its default (the image
// library read each byte of packed bits as a pixel, status 0) reads as the
// same file with the field written: 0 and 255.
TEST_F(ImageFiles, OneBitTiffsWithoutBitsPerSampleReadAsOneBit) {
  const std::array<unsigned char, 6> bits = {0xA5, 0x38, 0xFF, 0xF8, 0x01, 0x00};
  for (const bool little : {true, false}) {
    const fs::path bare = dir_ / (little ? "bare-ii.tif" : "bare-mm.tif");
    const fs::path told = dir_ / (little ? "told-ii.tif" : "told-mm.tif");
    std::ofstream(bare, std::ios::binary) << one_bit_tiff(little, false, bits);
    std::ofstream(told, std::ios::binary) << one_bit_tiff(little, true, bits);
    const Image image = load_image(bare);
    ASSERT_EQ(image.format, (PixelFormat{ChannelLayout::Grey, SampleType::U8}));
    ASSERT_EQ(image.width, 13U);
    for (std::uint32_t y = 0; y < 3; ++y) {
      for (std::uint32_t x = 0; x < 13; ++x) {
        const bool set = ((bits[y * 2 + x / 8] >> (7 - x % 8)) & 1U) != 0;
        ASSERT_EQ(static_cast<unsigned>(image.view().row(y)[x]), set ? 255U : 0U) << x << "," << y;
      }
    }
    const Image expected = load_image(told);
    for (std::uint32_t y = 0; y < 3; ++y) {
      EXPECT_EQ(std::memcmp(image.view().row(y), expected.view().row(y), 13), 0) << y;
    }
  }
}

// A palette TIFF of 16x16 pixels (pixel i holds index i modulo 2^bits),
// made by hand: classic or BigTIFF, little- or big-endian, its map of 3 x
// 2^bits values `map` (red, green, blue) of TIFF type `type` (1 BYTE, 3
// SHORT, 4 LONG), with or without its BitsPerSample field.
struct PaletteTiff {
  bool little = true;
  bool big_tiff = false;
  unsigned bits = 8;
  std::uint32_t type = 3;
  bool bits_field = true;
};
std::string palette_tiff(const PaletteTiff& f, const std::vector<unsigned>& map) {
  const std::uint64_t row_bytes = (16 * f.bits + 7) / 8;
  std::string pixels;
  for (unsigned y = 0; y < 16; ++y) {
    std::string row(row_bytes, '\0');
    for (unsigned x = 0; x < 16; ++x) {
      const unsigned index = (y * 16 + x) % (1U << f.bits);
      const unsigned bit = x * f.bits;
      row[bit / 8] = static_cast<char>(row[bit / 8] | (index << (8 - f.bits - bit % 8)));
    }
    pixels += row;
  }
  test::TiffBuilder b(f.little, f.big_tiff);
  b.field(256, 3, {16}).field(257, 3, {16});
  if (f.bits_field) b.field(258, 3, {f.bits});
  b.field(259, 3, {1}).field(262, 3, {3});  // no compression; palette
  b.offsets(273, {b.blob(pixels)}).field(277, 3, {1}).field(279, 4, {16 * row_bytes});
  b.field(320, static_cast<std::uint16_t>(f.type),
          std::vector<std::uint64_t>(map.begin(), map.end()));
  return b.build();
}

// A palette TIFF's colours are libtiff's: each map entry's high byte, or the
// entry itself where no entry of the whole map exceeds 255. The image library
// divides by 257, so a map written as v x 256 (Pillow's) was read one level
// low for every v above 0 (255 as 254, status 0), and an 8-bit map as black.
// libtiff's own tiff2rgba is the witness where it reads the file.
TEST_F(ImageFiles, PaletteTiffColoursAreLibtiffs) {
  // Colour c of entry i of a map of 2^bits entries, in 8 bits.
  const auto colour = [](unsigned i, unsigned bits, unsigned c) {
    const unsigned r = i * 255 / ((1U << bits) - 1);
    return c == 0 ? r : c == 1 ? 255 - r : (i * 37 + 11) % 256;
  };
  const auto map_of = [&](unsigned bits, const std::function<unsigned(unsigned)>& store) {
    std::vector<unsigned> map;
    for (unsigned c = 0; c < 3; ++c) {
      for (unsigned i = 0; i < 1U << bits; ++i) map.push_back(store(colour(i, bits, c)));
    }
    return map;
  };
  struct Case {
    std::string what;
    PaletteTiff file;
    std::vector<unsigned> map;
  };
  std::vector<Case> cases;
  for (const unsigned bits : {1U, 2U, 4U, 8U}) {
    for (const bool little : {true, false}) {
      const std::string order = little ? " II" : " MM";
      const std::string depth = std::to_string(bits) + "-bit";
      cases.push_back({"x256 " + depth + order, {little, false, bits}, map_of(bits, [](unsigned v) {
                         return v * 256;
                       })});
      cases.push_back({"x257 " + depth + order, {little, false, bits}, map_of(bits, [](unsigned v) {
                         return v * 257;
                       })});
      cases.push_back({"8-bit " + depth + order,
                       {little, false, bits},
                       map_of(bits, [](unsigned v) { return v; })});
    }
  }
  // Which rule holds is decided by the whole map: 8-bit values but for one
  // entry of 256 make a 16-bit map (each entry's high byte: mostly 0).
  std::vector<unsigned> mixed = map_of(8, [](unsigned v) { return v; });
  mixed[256 + 7] = 256;
  cases.push_back({"mixed 8-bit", {true, false, 8}, mixed});
  cases.push_back(
      {"x256 BigTIFF II", {true, true, 8}, map_of(8, [](unsigned v) { return v * 256; })});
  cases.push_back(
      {"x256 BigTIFF MM", {false, true, 8}, map_of(8, [](unsigned v) { return v * 256; })});
  // libtiff reads maps of other unsigned types too.
  cases.push_back(
      {"LONG x256", {true, false, 8, 4}, map_of(8, [](unsigned v) { return v * 256; })});
  cases.push_back({"BYTE 8-bit", {false, false, 8, 1}, map_of(8, [](unsigned v) { return v; })});
  // A 1-bit palette leaving BitsPerSample to its default (1): both of the
  // fixes in memory (libtiff refuses this file, so no witness).
  cases.push_back({"x256 1-bit, no BitsPerSample",
                   {true, false, 1, 3, false},
                   map_of(1, [](unsigned v) { return v * 256; })});
  // Cut off inside its colour map: refused (libtiff drops the map, and the
  // library read the indices as grey levels).
  const std::string whole =
      palette_tiff({true, false, 8}, map_of(8, [](unsigned v) { return v * 256; }));
  std::ofstream(dir_ / "palette-cut.tif", std::ios::binary) << whole.substr(0, 400);
  expect_refused(dir_ / "palette-cut.tif", "truncated image: its TIFF colour map of 1536 bytes");
  int n = 0;
  for (const Case& k : cases) {
    const fs::path path = dir_ / ("palette" + std::to_string(n++) + ".tif");
    std::ofstream(path, std::ios::binary) << palette_tiff(k.file, k.map);
    const bool eight_bit_map =
        std::all_of(k.map.begin(), k.map.end(), [](unsigned v) { return v < 256; });
    const Image image = load_image(path);
    ASSERT_EQ(image.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8})) << k.what;
    ASSERT_EQ(image.width, 16U);
    const unsigned entries = 1U << k.file.bits;
    for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 0; x < 16; ++x) {
        const unsigned index = (y * 16 + x) % entries;
        for (unsigned c = 0; c < 3; ++c) {
          const unsigned stored = k.map[c * entries + index];
          ASSERT_EQ(std::to_integer<unsigned>(image.view().row(y)[3 * x + c]),
                    eight_bit_map ? stored : stored >> 8)
              << k.what << " at " << x << "," << y << " channel " << c;
        }
      }
    }
    if (!k.file.bits_field || k.file.big_tiff) continue;  // tiff2rgba writes classic TIFFs
    const fs::path rgba = dir_ / ("palette-rgba" + std::to_string(n) + ".tif");
    const std::string command =
        "tiff2rgba -c none '" + path.string() + "' '" + rgba.string() + "' 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << "tiff2rgba (libtiff-tools) failed: " << k.what;
    const Image witness = load_image(rgba);
    ASSERT_EQ(witness.width, 16U) << k.what;
    for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 0; x < 16; ++x) {
        for (unsigned c = 0; c < 3; ++c) {
          ASSERT_EQ(image.view().row(y)[3 * x + c],
                    witness.view().row(y)[channel_count(witness.format.layout) * x + c])
              << k.what << " at " << x << "," << y;
        }
      }
    }
  }
}

// A CMYK TIFF of 37x19 pixels, 8- or 16-bit, little-endian, one strip, no
// compression, made by hand; its samples from `samples` (4 a pixel).
std::string cmyk_tiff(unsigned bits, const std::vector<std::uint16_t>& samples) {
  std::string pixels;
  for (const std::uint16_t v : samples) {
    pixels += static_cast<char>(v);
    if (bits == 16) pixels += static_cast<char>(v >> 8);
  }
  test::TiffBuilder b;
  b.field(256, 3, {37}).field(257, 3, {19}).field(258, 3, {bits, bits, bits, bits});
  b.field(259, 3, {1}).field(262, 3, {5});  // no compression; separated
  b.offsets(273, {b.blob(pixels)}).field(277, 3, {4}).field(278, 3, {19});
  b.field(279, 4, {pixels.size()}).field(332, 3, {1});  // CMYK inks
  return b.build();
}

// CMYK TIFFs are converted to RGB as the image library converts striped
// ones, in every layout: tiled, planes apart, both, compressed. The library
// converted tiled ones past its own buffers (a crash on valid files); they
// are read as inks and converted by its arithmetic here. The witness of the
// conversion is the library's own, on the striped file.
TEST_F(ImageFiles, CmykTiffsOfEveryLayoutReadAsTheLibraryConvertsThem) {
  std::mt19937 random(7);
  for (const unsigned bits : {8U, 16U}) {
    std::vector<std::uint16_t> samples(37 * 19 * 4);
    for (std::uint16_t& v : samples) v = static_cast<std::uint16_t>(random() >> (32 - bits));
    const fs::path striped = dir_ / ("cmyk" + std::to_string(bits) + ".tif");
    std::ofstream(striped, std::ios::binary) << cmyk_tiff(bits, samples);
    // The library's conversion, through its own reader.
    auto input = OIIO::ImageInput::open(striped.string());
    ASSERT_TRUE(input) << OIIO::geterror();
    ASSERT_EQ(input->spec().nchannels, 3);
    const OIIO::TypeDesc type = bits == 8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16;
    std::vector<unsigned char> expected(37 * 19 * 3 * bits / 8);
    ASSERT_TRUE(input->read_image(0, 0, 0, 3, type, expected.data()));
    input.reset();
    const std::string layouts[] = {
        "",       "-t -w 16 -l 16",       "-p separate", "-t -w 16 -l 16 -p separate",
        "-c lzw", "-c zip -t -w 16 -l 16"};
    int n = 0;
    for (const std::string& layout : layouts) {
      // (tiffcp puts 8-bit planes apart alone.)
      if (bits == 16 && layout.find("separate") != std::string::npos) continue;
      fs::path path = striped;
      if (!layout.empty()) {
        path = dir_ / ("cmyk" + std::to_string(bits) + "-" + std::to_string(n++) + ".tif");
        const std::string command =
            "tiffcp " + layout + " '" + striped.string() + "' '" + path.string() + "'";
        ASSERT_EQ(std::system(command.c_str()), 0) << "tiffcp (libtiff-tools) failed: " << layout;
      }
      const Image image = load_image(path);
      ASSERT_EQ(image.format.layout, ChannelLayout::RGB) << layout;
      EXPECT_FALSE(image.alpha) << layout;
      if (layout.empty() && bits == 8) {
        // JPEG-coded: striped ones the library reads itself; tiled ones, whose
        // tiles it writes past its buffer, are refused.
        const fs::path jpeg = dir_ / "cmyk-jpeg.tif", tiled = dir_ / "cmyk-jpeg-tiled.tif";
        ASSERT_EQ(
            std::system(("tiffcp -c jpeg '" + path.string() + "' '" + jpeg.string() + "'").c_str()),
            0);
        ASSERT_EQ(std::system(("tiffcp -c jpeg -t -w 16 -l 16 '" + path.string() + "' '" +
                               tiled.string() + "'")
                                  .c_str()),
                  0);
        EXPECT_EQ(load_image(jpeg).format.layout, ChannelLayout::RGB);
        expect_refused(tiled, "unsupported image: a tiled JPEG-compressed CMYK TIFF");
      }
      EXPECT_TRUE(image.notes.empty()) << layout;
      const std::size_t row = 37 * 3 * bits / 8;
      for (std::uint32_t y = 0; y < 19; ++y) {
        ASSERT_EQ(std::memcmp(image.view().row(y), &expected[y * row], row), 0)
            << bits << "-bit " << layout << " row " << y;
      }
    }
  }
}

// OpenEXR files of every compression read as stored. OpenEXRCore's reader,
// which reads Zip, RLE, PIZ and PXR24 files, read B44's float channels
// (stored as they are) wrong, refused valid DWAA and DWAB files, and counted
// an uncompressed file cut short with zeros; those are read by OpenEXR's C++
// reader. Samples are exact but in the lossy codings (B44's halves, DWA's
// halves and floats), where they are near.
TEST_F(ImageFiles, OpenExrFilesOfEveryCompressionReadAsStored) {
  constexpr int kWidth = 61, kHeight = 37;
  // Smooth (the lossy codings' error stays small), below 0 and above 1.
  std::vector<float> source(kWidth * kHeight * 3);
  for (std::size_t i = 0; i < source.size(); ++i) {
    const auto x = static_cast<float>(i / 3 % kWidth), y = static_cast<float>(i / 3 / kWidth);
    source[i] = 0.6F + 0.8F * std::sin(x / 9 + static_cast<float>(i % 3)) * std::cos(y / 7);
  }
  for (const char* compression : {"none", "b44", "b44a", "dwaa", "dwab", "zip", "piz"}) {
    for (const OIIO::TypeDesc type : {OIIO::TypeDesc::FLOAT, OIIO::TypeDesc::HALF}) {
      const std::string what = std::string(compression) + " " + type.c_str();
      const fs::path path = dir_ / (std::string(compression) + "-" + type.c_str() + ".exr");
      auto out = OIIO::ImageOutput::create(path.string());
      ASSERT_TRUE(out) << OIIO::geterror();
      OIIO::ImageSpec spec(kWidth, kHeight, 3, type);
      spec.attribute("compression", compression);
      ASSERT_TRUE(out->open(path.string(), spec)) << out->geterror();
      ASSERT_TRUE(out->write_image(OIIO::TypeDesc::FLOAT, source.data())) << out->geterror();
      out->close();
      const Image image = load_image(path);
      ASSERT_EQ(image.format, (PixelFormat{ChannelLayout::RGB, SampleType::F32})) << what;
      // B44 keeps float channels as they are; DWA codes floats too.
      const bool dwa = compression[0] == 'd';
      const bool lossy = dwa || (type == OIIO::TypeDesc::HALF && compression[0] == 'b');
      for (int y = 0; y < kHeight; ++y) {
        const auto* row =
            reinterpret_cast<const float*>(image.view().row(static_cast<std::uint32_t>(y)));
        for (int i = 0; i < kWidth * 3; ++i) {
          const float stored = source[static_cast<std::size_t>(y * kWidth * 3 + i)];
          const float want =
              type == OIIO::TypeDesc::HALF ? static_cast<float>(half(stored)) : stored;
          if (lossy) {
            ASSERT_NEAR(row[i], want, 0.1F) << what << " at " << i / 3 << "," << y;
          } else {
            ASSERT_EQ(row[i], want) << what << " at " << i / 3 << "," << y;
          }
        }
      }
      // Cut short by 50 bytes: refused, never counted with zeros; a chunk
      // declaring fewer bytes than its line: refused.
      if (std::string(compression) == "none") {
        std::string bytes = test::file_text(path);
        const fs::path cut = dir_ / ("cut-" + path.filename().string());
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 50);
        expect_refused(cut, "truncated image: its OpenEXR line 36 of");
        // The first chunk: line 0, then its size, after the header and offset table.
        const std::uint32_t line = kWidth * 3 * static_cast<std::uint32_t>(type.size());
        const std::string head =
            std::string(4, '\0') + std::string(reinterpret_cast<const char*>(&line), 4);
        const std::size_t at = bytes.find(head);
        ASSERT_NE(at, std::string::npos) << what;
        bytes[at + 4] = static_cast<char>(bytes[at + 4] - 8);
        const fs::path lying = dir_ / ("lying-" + path.filename().string());
        std::ofstream(lying, std::ios::binary) << bytes;
        expect_refused(lying, "corrupt image: its OpenEXR chunk at byte");
      }
    }
  }
  // Uncompressed tiles (16x16, the last of each row and column partial):
  // read as stored; cut short, refused.
  const fs::path tiled = dir_ / "tiled-none.exr";
  auto out = OIIO::ImageOutput::create(tiled.string());
  ASSERT_TRUE(out) << OIIO::geterror();
  OIIO::ImageSpec spec(kWidth, kHeight, 3, OIIO::TypeDesc::FLOAT);
  spec.tile_width = spec.tile_height = 16;
  spec.attribute("compression", "none");
  ASSERT_TRUE(out->open(tiled.string(), spec)) << out->geterror();
  ASSERT_TRUE(out->write_image(OIIO::TypeDesc::FLOAT, source.data())) << out->geterror();
  out->close();
  const Image image = load_image(tiled);
  for (int y = 0; y < kHeight; ++y) {
    ASSERT_EQ(std::memcmp(image.view().row(static_cast<std::uint32_t>(y)),
                          &source[static_cast<std::size_t>(y * kWidth * 3)], kWidth * 3 * 4),
              0)
        << y;
  }
  const std::string bytes = test::file_text(tiled);
  std::ofstream(dir_ / "tiled-cut.exr", std::ios::binary) << bytes.substr(0, bytes.size() - 50);
  expect_refused(dir_ / "tiled-cut.exr", "truncated image: its OpenEXR tile 3,2 of");
}

// A grey TIFF of 23x5 pixels, `bits` a sample (packed, first bit highest),
// little-endian, one strip, no compression, made by hand: 0 black
// (MinIsBlack) or 0 white (MinIsWhite).
std::string grey_tiff(unsigned bits, bool zero_is_white, const std::vector<unsigned>& samples) {
  const std::uint32_t row_bytes = (23 * bits + 7) / 8;
  std::string pixels;
  for (std::uint32_t y = 0; y < 5; ++y) {
    std::string row(row_bytes, '\0');
    for (std::uint32_t x = 0; x < 23; ++x) {
      for (unsigned b = 0; b < bits; ++b) {
        if (((samples[y * 23 + x] >> (bits - 1 - b)) & 1U) != 0) {
          const std::uint32_t at = x * bits + b;
          row[at / 8] = static_cast<char>(row[at / 8] | (0x80U >> (at % 8)));
        }
      }
    }
    pixels += row;
  }
  test::TiffBuilder b;
  b.field(256, 3, {23}).field(257, 3, {5}).field(258, 3, {bits}).field(259, 3, {1});
  b.field(262, 3, {zero_is_white ? 0U : 1U});
  b.offsets(273, {b.blob(pixels)}).field(278, 3, {5}).field(279, 4, {5 * row_bytes});
  return b.build();
}

// A grey TIFF whose 0 is white reads the other way up at every depth, as
// libtiff shows it: the image library turned 8-bit samples (and narrower)
// but not 12- and 16-bit ones (a mirrored histogram, status 0). The witness
// is the library's own reading of the same levels stored with 0 black.
TEST_F(ImageFiles, GreyTiffsWhoseZeroIsWhiteReadTurnedAtEveryDepth) {
  std::mt19937 random(5);
  for (const unsigned bits : {4U, 8U, 10U, 12U, 16U}) {
    const unsigned most = (1U << bits) - 1;
    std::vector<unsigned> samples(23 * 5), turned(23 * 5);
    for (std::size_t i = 0; i < samples.size(); ++i) {
      samples[i] = i < 2 ? (i == 0 ? 0 : most) : random() % (most + 1);
      turned[i] = most - samples[i];
    }
    const fs::path white = dir_ / ("white" + std::to_string(bits) + ".tif");
    const fs::path black = dir_ / ("black" + std::to_string(bits) + ".tif");
    std::ofstream(white, std::ios::binary) << grey_tiff(bits, true, samples);
    std::ofstream(black, std::ios::binary) << grey_tiff(bits, false, turned);
    const Image read = load_image(white);
    const Image expected = load_image(black);
    ASSERT_EQ(read.format, expected.format) << bits;
    ASSERT_EQ(read.format.layout, ChannelLayout::Grey) << bits;
    const std::size_t row = 23 * sample_bytes(read.format.sample);
    for (std::uint32_t y = 0; y < 5; ++y) {
      ASSERT_EQ(std::memcmp(read.view().row(y), expected.view().row(y), row), 0)
          << bits << "-bit row " << y;
    }
    // The first sample, 0, is white.
    const auto first =
        read.format.sample == SampleType::U8
            ? unsigned{std::to_integer<unsigned char>(read.view().row(0)[0])}
            : unsigned{reinterpret_cast<const std::uint16_t*>(read.view().row(0))[0]};
    EXPECT_EQ(first, read.format.sample == SampleType::U8 ? 255U : 65535U) << bits;
  }
}

// An adjusted 4:4:0 JPEG (a 4:2:2 photograph turned losslessly), which the
// image library's writer does not write, keeps its chroma whole as 4:4:4
// rather than halving it again as the writer's default 4:2:0.
TEST_F(ImageFiles, AFourFourZeroJpegIsWrittenFourFourFour) {
  const Image photo = load_image(fs::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg");
  const std::string bytes = libjpeg_encode(photo.view(), [](jpeg_compress_struct& info) {
    info.comp_info[0].h_samp_factor = 1;  // luma 1x2, chroma 1x1: 4:4:0
    info.comp_info[0].v_samp_factor = 2;
  });
  const fs::path source = dir_ / "s440.jpg";
  std::ofstream(source, std::ios::binary) << bytes;
  const auto as_bytes = [](const std::string& text) {
    return std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  };
  ASSERT_EQ(io::jpeg_subsampling(as_bytes(bytes)), "4:4:0");
  const fs::path written = dir_ / "s440-eq.jpg";
  const auto r =
      test::run_cli({"equalize", source.string(), "-o", written.string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(io::jpeg_subsampling(as_bytes(test::file_text(written))), "4:4:4");
}

// JPEG coded data that libjpeg finds damaged: data that ends early is
// refused; data left over at the end (damage that threw the rest out of step,
// or an encoder's padding) is decoded with a warning; a few bytes of padding,
// and junk between header segments, pass without one. FFmpeg's decoder, told
// to fail on any error, is the independent witness of the damage.
TEST_F(ImageFiles, DamagedJpegDataIsRefusedOrNamed) {
  const fs::path photo = fs::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg";
  const std::string bytes = test::file_text(photo);
  const std::size_t scan = bytes.find("\xFF\xDA");
  const std::size_t end = bytes.rfind("\xFF\xD9");
  ASSERT_NE(scan, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  const auto write_file = [&](const std::string& name, const std::string& data) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(data.data(), static_cast<std::streamsize>(data.size()));
    return dir_ / name;
  };
  const auto ffmpeg_finds_errors = [](const fs::path& path) {
    return !test::ffmpeg("-v quiet -err_detect explode -i '" + path.string() + "' -f null -");
  };
  const Image whole = load_image(photo);
  EXPECT_TRUE(whole.warning.empty()) << whole.warning;
  EXPECT_FALSE(ffmpeg_finds_errors(photo));
  const std::vector<std::byte> pixels = test::pixel_bytes_of(whole.view());

  // Cut in its coded data, however near its end: refused.
  for (const std::size_t cut : {scan + (end - scan) / 2, end - 64, end - 8}) {
    expect_refused(write_file("cut.jpg", bytes.substr(0, cut)),
                   "cut.jpg: corrupt or truncated image: Premature end of JPEG file");
  }

  // Codes overwritten in the middle: decoded, with the warning.
  std::string overwritten = bytes;
  for (std::size_t at = scan + (end - scan) / 2, k = 0; k < 12; ++k, at += 2) {
    overwritten[at] = '\xFF';
    overwritten[at + 1] = '\0';
  }
  const fs::path damaged = write_file("damaged.jpg", overwritten);
  EXPECT_TRUE(ffmpeg_finds_errors(damaged));
  const Image concealed = load_image(damaged);
  EXPECT_NE(concealed.warning.find("Corrupt JPEG data: "), std::string::npos) << concealed.warning;
  EXPECT_NE(concealed.warning.find(" extraneous bytes before marker 0xd9"), std::string::npos)
      << concealed.warning;
  EXPECT_NE(test::pixel_bytes_of(concealed.view()), pixels);

  // Padding before the end: a few bytes pass, more are named; the pixels are whole either way.
  for (const std::size_t padding : {4U, 40U}) {
    const fs::path padded = write_file(
        "padded.jpg", bytes.substr(0, end) + std::string(padding, '\0') + bytes.substr(end));
    const Image image = load_image(padded);
    EXPECT_EQ(test::pixel_bytes_of(image.view()), pixels) << padding;
    EXPECT_EQ(image.warning.empty(), padding == 4) << padding << ": " << image.warning;
  }
  // Junk before a header segment: passes.
  const std::size_t tables = bytes.find("\xFF\xDB");
  ASSERT_LT(tables, scan);
  const Image junk = load_image(
      write_file("junk.jpg", bytes.substr(0, tables) + "\x12\x34\x56" + bytes.substr(tables)));
  EXPECT_TRUE(junk.warning.empty()) << junk.warning;
  EXPECT_EQ(test::pixel_bytes_of(junk.view()), pixels);

  // After every row: no end marker, or a second image appended. The pixels are whole: a warning.
  // The end marker cut off (or half of it), as a copy stopped at the last byte
  // leaves it: the decoder's read-ahead runs past the coded data.
  const std::pair<const char*, std::string> after[] = {
      {"Premature end of JPEG file", bytes.substr(0, end) + std::string(64, '\0')},
      {"two SOI markers", bytes.substr(0, end) + bytes},
      {"Premature end of JPEG file: no end marker", bytes.substr(0, end)},
      {"Premature end of JPEG file: no end marker", bytes.substr(0, end + 1)},
  };
  for (const auto& [said, data] : after) {
    const Image image = load_image(write_file("after.jpg", data));
    EXPECT_NE(image.warning.find(said), std::string::npos) << said << ": " << image.warning;
    EXPECT_EQ(test::pixel_bytes_of(image.view()), pixels) << said;
  }

  // Coded data left over before a restart marker, or before the next scan of
  // a progressive file, is damage, however short (no encoder pads there).
  const auto refused = [&](const std::string& name, const std::string& data) {
    expect_refused(write_file(name, data),
                   name + ": corrupt or truncated image: Corrupt JPEG data: ");
  };
  const std::string junk_bytes(32, '\x55');
  const std::string restarts = jpeg_with_restarts(whole.view(), 4);
  const std::size_t second_rst = restarts.find("\xFF\xD1");
  ASSERT_NE(second_rst, std::string::npos);
  EXPECT_TRUE(load_image(write_file("restarts.jpg", restarts)).warning.empty());
  refused("rst.jpg", restarts.substr(0, second_rst) + junk_bytes + restarts.substr(second_rst));
  {
    OIIO::ImageSpec spec(static_cast<int>(whole.width), static_cast<int>(whole.height), 3,
                         OIIO::TypeDesc::UINT8);
    spec.attribute("jpeg:progressive", 1);
    auto out = OIIO::ImageOutput::create((dir_ / "progressive.jpg").string());
    ASSERT_TRUE(out && out->open((dir_ / "progressive.jpg").string(), spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, whole.storage.data(), OIIO::AutoStride,
                                 static_cast<OIIO::stride_t>(whole.stride)) &&
                out->close());
  }
  const std::string progressive = test::file_text(dir_ / "progressive.jpg");
  const std::size_t first_scan = progressive.find("\xFF\xDA");
  ASSERT_NE(first_scan, std::string::npos);
  // The next marker after the first scan's coded data (FF 00 is a stuffed byte, FF Dn a restart).
  std::size_t next = first_scan + 2;
  while ((next = progressive.find('\xFF', next + 1)) != std::string::npos &&
         (static_cast<unsigned char>(progressive[next + 1]) == 0x00 ||
          (static_cast<unsigned char>(progressive[next + 1]) & 0xF8) == 0xD0)) {
  }
  ASSERT_NE(next, std::string::npos);
  EXPECT_TRUE(load_image(dir_ / "progressive.jpg").warning.empty());
  refused("scans.jpg", progressive.substr(0, next) + junk_bytes + progressive.substr(next));
  // An arithmetic-coded file reads zeros past the end without a word: cut
  // anywhere, even at its end marker alone, it is refused.
  const std::string arithmetic = jpeg_with_restarts(whole.view(), 0, true);
  ASSERT_EQ(test::pixel_bytes_of(load_image(write_file("arith.jpg", arithmetic)).view()),
            test::pixel_bytes_of(
                load_image(write_file("huff.jpg", jpeg_with_restarts(whole.view(), 0))).view()));
  for (const std::size_t cut : {arithmetic.size() / 2, arithmetic.size() - 2}) {
    expect_refused(write_file("arith-cut.jpg", arithmetic.substr(0, cut)),
                   "arith-cut.jpg: corrupt or truncated image: Premature end of JPEG file");
  }
  // A progressive file that ends without its end marker may as well lack its
  // last scans, which nothing in it tells apart: refused.
  expect_refused(write_file("unended.jpg", progressive.substr(0, progressive.rfind("\xFF\xD9"))),
                 "unended.jpg: corrupt or truncated image: Premature end of JPEG file");

  // A 12-bit JPEG is not decoded, and says so.
  std::string deep = bytes;
  const std::size_t frame = deep.find("\xFF\xC0");
  ASSERT_NE(frame, std::string::npos);
  deep[frame + 4] = 12;  // the frame's sample precision
  expect_refused(write_file("deep.jpg", deep),
                 "deep.jpg: cannot read image: Unsupported JPEG data precision 12");
}

// libjpeg's own decode of a four-component JPEG to CMYK (YCCK made CMYK):
// its stored samples, four bytes a pixel, and what its header says.
struct StoredInks {
  J_COLOR_SPACE space = JCS_UNKNOWN;
  bool adobe = false;  // Adobe's marker seen
  std::vector<unsigned char> samples;
};
StoredInks libjpeg_inks(const std::string& bytes) {
  jpeg_decompress_struct in{};
  jpeg_error_mgr errors{};
  in.err = jpeg_std_error(&errors);
  jpeg_create_decompress(&in);
  jpeg_mem_src(&in, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  StoredInks out;
  if (jpeg_read_header(&in, TRUE) == JPEG_HEADER_OK) {
    out.space = in.jpeg_color_space;
    out.adobe = in.saw_Adobe_marker != FALSE;
    in.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&in);
    const std::size_t row_bytes = std::size_t{in.output_width} * 4;
    out.samples.resize(row_bytes * in.output_height);
    while (in.output_scanline < in.output_height) {
      JSAMPROW row = out.samples.data() + std::size_t{in.output_scanline} * row_bytes;
      (void)jpeg_read_scanlines(&in, &row, 1);
    }
    jpeg_finish_decompress(&in);
  }
  jpeg_destroy_decompress(&in);
  return out;
}

// The RGB OpenImageIO makes of stored CMYK samples: each of R, G and B the
// rounded C'K'/255 (Adobe's inverted samples), packed.
std::vector<std::byte> rgb_of_inks(const std::vector<unsigned char>& stored) {
  std::vector<std::byte> rgb;
  rgb.reserve(stored.size() / 4 * 3);
  for (std::size_t i = 0; i + 4 <= stored.size(); i += 4) {
    for (int c = 0; c < 3; ++c) {
      rgb.push_back(static_cast<std::byte>(std::lround(stored[i + c] * stored[i + 3] / 255.0)));
    }
  }
  return rgb;
}

// CMYK JPEGs (libjpeg writes them with Adobe's marker, its samples stored
// inverted as Photoshop stores them) come out RGB with no colour management:
// R = C'K'/255, G = M'K'/255, B = Y'K'/255 on the stored samples, rounded, as
// OpenImageIO converts them. libjpeg's own CMYK decode gives the stored samples.
TEST_F(ImageFiles, CmykJpegsAreConvertedWithoutAProfile) {
  constexpr unsigned kWidth = 97, kHeight = 61;  // not a multiple of the MCU
  Image cmyk = Image::allocate(kWidth, kHeight, {ChannelLayout::RGBA, SampleType::U8});
  std::mt19937 random(7);
  for (std::size_t y = 0; y < kHeight; ++y) {
    auto* row = reinterpret_cast<unsigned char*>(cmyk.storage.data() + y * cmyk.stride);
    for (std::size_t i = 0; i < std::size_t{kWidth} * 4; ++i) {
      row[i] = static_cast<unsigned char>((i / 4) * 3 + (i % 4) * 60 + random() % 8);
    }
  }
  const std::string bytes = libjpeg_encode(
      cmyk.view(), [](jpeg_compress_struct& info) { jpeg_set_quality(&info, 95, TRUE); });
  const fs::path path = dir_ / "cmyk.jpg";
  std::ofstream(path, std::ios::binary) << bytes;

  const StoredInks stored = libjpeg_inks(bytes);
  ASSERT_EQ(stored.space, JCS_CMYK);
  ASSERT_TRUE(stored.adobe);
  const Image image = load_image(path);
  ASSERT_EQ(image.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  ASSERT_EQ(image.width, kWidth);
  ASSERT_EQ(image.height, kHeight);
  EXPECT_EQ(test::pixel_bytes_of(image.view()), rgb_of_inks(stored.samples));
  // Written back to JPEG with its chroma whole (all four components 1x1), as
  // a Y'CbCr JPEG keeps its subsampling.
  const std::string cmyk_bytes = test::file_text(path);
  const auto as_bytes = [](const std::string& text) {
    return std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  };
  ASSERT_EQ(io::jpeg_subsampling(as_bytes(cmyk_bytes)), "4:4:4");
  const fs::path written = dir_ / "cmyk-eq.jpg";
  const auto r =
      test::run_cli({"equalize", path.string(), "-o", written.string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(io::jpeg_subsampling(as_bytes(test::file_text(written))), "4:4:4");
}

// CMYK and YCCK JPEGs are decoded as the others are: damage that libjpeg
// finds is refused or named (it was passed over in silence when the image
// library decoded them), and intact pixels are converted as before.
TEST_F(ImageFiles, CmykAndYcckJpegsAreCheckedForDamageAsOthersAre) {
  const Image photo = load_image(fs::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg");
  // Inks made from its colours: C', M', Y' its R, G, B, K' their largest.
  Image inks = Image::allocate(photo.width, photo.height, {ChannelLayout::RGBA, SampleType::U8});
  for (std::uint32_t y = 0; y < photo.height; ++y) {
    const auto* from = reinterpret_cast<const unsigned char*>(photo.view().row(y));
    auto* to = reinterpret_cast<unsigned char*>(inks.storage.data() + std::size_t{y} * inks.stride);
    for (std::uint32_t x = 0; x < photo.width; ++x) {
      std::copy_n(from + 3 * x, 3, to + 4 * x);
      to[4 * x + 3] = std::max({from[3 * x], from[3 * x + 1], from[3 * x + 2]});
    }
  }
  const auto write_file = [&](const std::string& name, const std::string& data) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(data.data(), static_cast<std::streamsize>(data.size()));
    return dir_ / name;
  };
  for (const J_COLOR_SPACE space : {JCS_CMYK, JCS_YCCK}) {
    SCOPED_TRACE(space == JCS_CMYK ? "CMYK" : "YCCK");
    const std::string bytes = libjpeg_encode(inks.view(), [&](jpeg_compress_struct& info) {
      jpeg_set_colorspace(&info, space);
      jpeg_set_quality(&info, 90, TRUE);
    });
    const StoredInks stored = libjpeg_inks(bytes);
    ASSERT_EQ(stored.space, space);
    const Image whole = load_image(write_file("inks.jpg", bytes));
    EXPECT_TRUE(whole.warning.empty()) << whole.warning;
    ASSERT_EQ(whole.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
    const std::vector<std::byte> expected = rgb_of_inks(stored.samples);
    EXPECT_EQ(test::pixel_bytes_of(whole.view()), expected);

    const std::size_t scan = bytes.find("\xFF\xDA");
    const std::size_t end = bytes.rfind("\xFF\xD9");
    ASSERT_NE(scan, std::string::npos);
    ASSERT_NE(end, std::string::npos);
    // Cut in its coded data: refused.
    expect_refused(write_file("cut.jpg", bytes.substr(0, scan + (end - scan) / 2)),
                   "cut.jpg: corrupt or truncated image: Premature end of JPEG file");
    // Codes overwritten in the middle: decoded, with the warning.
    std::string overwritten = bytes;
    for (std::size_t at = scan + (end - scan) / 2, k = 0; k < 12; ++k, at += 2) {
      overwritten[at] = '\xFF';
      overwritten[at + 1] = '\0';
    }
    const Image concealed = load_image(write_file("damaged.jpg", overwritten));
    EXPECT_NE(concealed.warning.find("Corrupt JPEG data: "), std::string::npos)
        << concealed.warning;
    EXPECT_NE(test::pixel_bytes_of(concealed.view()), expected);
  }
}

// JPEGs whose planes `--space ycbcr` does not count say why, and whether
// counting them as RGB reads them: arithmetic coding (FFmpeg's decoder has
// none; libjpeg reads it as RGB), four inks (CMYK, YCCK), a lossless JPEG of
// RGB samples (which libjpeg-turbo does not read either).
TEST_F(ImageFiles, JpegsWhosePlanesAreNotCountedSaySo) {
  const test::TestImage photo =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 48, 32, test::Content::Random, 9);
  const auto write_file = [&](const std::string& name, const std::string& data) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(data.data(), static_cast<std::streamsize>(data.size()));
    return dir_ / name;
  };
  const auto planes = [](const fs::path& file) {
    return test::run_cli({"compute", file.string(), "--space", "ycbcr", "--device", "cpu"});
  };
  const fs::path arithmetic = write_file("arith.jpg", jpeg_with_restarts(photo.view, 0, true));
  const auto a = planes(arithmetic);
  EXPECT_EQ(a.status, 1);
  test::expect_one_line_error(a,
                              "arith.jpg: an arithmetic-coded JPEG, whose planes FFmpeg's "
                              "decoder does not read (leave out --space ycbcr to count it as "
                              "RGB)");

  Image inks = Image::allocate(8, 8, {ChannelLayout::RGBA, SampleType::U8});
  std::memset(inks.storage.data(), 90, inks.storage.size());
  for (const J_COLOR_SPACE space : {JCS_CMYK, JCS_YCCK}) {
    const fs::path file = write_file(space == JCS_CMYK ? "cmyk.jpg" : "ycck.jpg",
                                     libjpeg_encode(inks.view(), [&](jpeg_compress_struct& info) {
                                       jpeg_set_colorspace(&info, space);
                                     }));
    const auto r = planes(file);
    EXPECT_EQ(r.status, 1);
    // (Read as RGB: CmykAndYcckJpegsAreCheckedForDamageAsOthersAre.)
    test::expect_one_line_error(r, file.filename().string() +
                                       ": a CMYK or YCCK JPEG, of four inks: its planes are not "
                                       "a picture's Y'CbCr (leave out --space ycbcr to count it "
                                       "as RGB)");
  }

  const fs::path lossless = dir_ / "lossless.jpg";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=32x32 -frames:v 1 -c:v ljpeg -pix_fmt "
                   "bgr24 '" +
                   lossless.string() + "'"));
  const auto l = planes(lossless);
  EXPECT_EQ(l.status, 1);
  test::expect_one_line_error(l,
                              "lossless.jpg: its planes are not Y'CbCr or grey: it decodes as "
                              "bgr24 (a lossless JPEG, which is not read as RGB either)");
  EXPECT_EQ(test::run_cli({"compute", lossless.string(), "--device", "cpu"}).status, 1);
}

// A message the image library gives more than once for one failure is said
// once ("Couldn't decode subimage 0", twice, of a damaged lossless WebP).
TEST_F(ImageFiles, ARepeatedLibraryMessageIsSaidOnce) {
  const fs::path webp = dir_ / "lossless.webp";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=200x150 -frames:v 1 -c:v libwebp "
                   "-lossless 1 '" +
                   webp.string() + "'"));
  std::string bytes = test::file_text(webp);
  for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 8; ++i) {
    bytes[i] = static_cast<char>(bytes[i] ^ 0xFF);
  }
  std::ofstream(dir_ / "damaged.webp", std::ios::binary) << bytes;
  try {
    (void)load_image(dir_ / "damaged.webp");
    ADD_FAILURE() << "damaged.webp read";
  } catch (const Error& e) {
    const std::string what = e.what();
    const std::string message = "Couldn't decode subimage 0";
    const std::size_t first = what.find(message);
    ASSERT_NE(first, std::string::npos) << what;
    EXPECT_EQ(what.find(message, first + 1), std::string::npos) << what;
  }
}

// The library's messages name no command-line option: the setting that gets
// past a refusal is its remedy, which each front end names.
TEST_F(ImageFiles, MaxPixelsIsCheckedBeforeDecoding) {
  const fs::path photo = fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png";
  EXPECT_NO_THROW((void)load_image(photo, LoadOptions{600 * 400}));
  try {
    (void)load_image(photo, LoadOptions{600 * 400 - 1});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.remedy(), Remedy::MaxPixels);
    EXPECT_EQ(std::string(e.what()),
              photo.string() + ": 600x400 = 240000 pixels exceeds the limit of 239999");
  }
  const fs::path text = dir_ / "notes.txt";
  std::ofstream(text) << "plain text, no image";
  for (const fs::path& refused : {text, dir_ / "layers.psd"}) {
    if (refused.extension() == ".psd") std::ofstream(refused) << "8BPS" << std::string(60, '\0');
    try {
      (void)load_image(refused);
      FAIL() << refused;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_EQ(e.remedy(), Remedy::AllFormats) << e.what();
      EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
    }
  }
}

// A WebP's canvas is checked against the limit from its header, before the
// reader sizes a buffer for it as it opens the file (lossy, lossless).
TEST_F(ImageFiles, WebPCanvasIsCheckedFromTheHeader) {
  const auto image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 64, 48, test::Content::Gradient);
  for (const bool lossless : {false, true}) {
    const fs::path path = dir_ / (lossless ? "lossless.webp" : "lossy.webp");
    {
      auto out = OIIO::ImageOutput::create(path.string());
      OIIO::ImageSpec spec(64, 48, 3, OIIO::TypeDesc::UINT8);
      if (lossless) spec.attribute("compression", "lossless");
      ASSERT_TRUE(out && out->open(path.string(), spec));
      ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, image.view.data, OIIO::AutoStride,
                                   static_cast<OIIO::stride_t>(image.view.stride)));
      out->close();
    }
    EXPECT_EQ(load_image(path, LoadOptions{64 * 48}).width, 64U) << path;
    try {
      (void)load_image(path, LoadOptions{64 * 48 - 1});
      ADD_FAILURE() << path << " read over the limit";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("its WebP canvas of 64x48 = 3072 pixels exceeds the "
                                           "limit of 3071"),
                std::string::npos)
          << e.what();
    }
  }
}

// A little-endian TIFF, its directory first: width x height, `samples`
// 8-bit samples a pixel, coded by `compression` (TIFF's code), in planes
// stored apart (`planar` 2: a strip each) or together (1: one strip), the
// strips' bytes as given.
std::string tiff_of_strips(std::uint32_t width, std::uint32_t height, std::uint16_t samples,
                           std::uint16_t compression, std::uint16_t planar,
                           const std::vector<std::string>& strips) {
  test::TiffBuilder b;
  std::vector<std::size_t> blobs;
  std::vector<std::uint64_t> sizes;
  for (const std::string& strip : strips) {
    blobs.push_back(b.blob(strip));
    sizes.push_back(strip.size());
  }
  b.field(256, 4, {width}).field(257, 4, {height});
  b.field(258, 3, std::vector<std::uint64_t>(samples, 8)).field(259, 3, {compression});
  b.field(262, 3, {samples == 1 ? 1U : 2U}).offsets(273, blobs).field(277, 3, {samples});
  b.field(278, 4, {height}).field(279, 4, sizes).field(284, 3, {planar});
  return b.build();
}

std::string one_strip_tiff(std::uint32_t width, std::uint32_t height, std::uint16_t samples,
                           std::uint16_t compression, const std::string& strip) {
  return tiff_of_strips(width, height, samples, compression, 1, {strip});
}

// `bytes` as a zlib stream (TIFF's Adobe Deflate).
std::string deflated(const std::string& bytes) {
  uLongf size = compressBound(static_cast<uLong>(bytes.size()));
  std::string out(size, '\0');
  EXPECT_EQ(
      compress(reinterpret_cast<Bytef*>(out.data()), &size,
               reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uLong>(bytes.size())),
      Z_OK);
  out.resize(size);
  return out;
}

// A WebP's colour under alpha is counted as stored: a constant colour under a
// gradient of alpha stays constant (the image library gave it premultiplied),
// and read with its alpha, the alpha is the file's.
TEST_F(ImageFiles, WebpColourUnderAlphaIsAsStored) {
  constexpr int kWidth = 64, kHeight = 16;
  std::vector<std::uint8_t> rgba(std::size_t{kWidth} * kHeight * 4);
  for (std::size_t i = 0; i < rgba.size() / 4; ++i) {
    rgba[i * 4] = 200;
    rgba[i * 4 + 1] = 120;
    rgba[i * 4 + 2] = 40;
    rgba[i * 4 + 3] = static_cast<std::uint8_t>((i % kWidth) * 4 + 3);
  }
  std::uint8_t* encoded = nullptr;
  const std::size_t size =
      WebPEncodeLosslessRGBA(rgba.data(), kWidth, kHeight, kWidth * 4, &encoded);
  ASSERT_GT(size, 0U);
  std::ofstream(dir_ / "alpha.webp", std::ios::binary)
      .write(reinterpret_cast<const char*>(encoded), static_cast<std::streamsize>(size));
  WebPFree(encoded);
  const Image colour = load_image(dir_ / "alpha.webp");
  ASSERT_EQ(colour.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8}));
  const std::vector<std::byte> rgb = test::pixel_bytes_of(colour.view());
  for (std::size_t i = 0; i < rgb.size(); i += 3) {
    ASSERT_EQ(std::to_integer<int>(rgb[i]), 200) << "pixel " << i / 3;
    ASSERT_EQ(std::to_integer<int>(rgb[i + 1]), 120) << "pixel " << i / 3;
    ASSERT_EQ(std::to_integer<int>(rgb[i + 2]), 40) << "pixel " << i / 3;
  }
  LoadOptions with_alpha;
  with_alpha.alpha = true;
  const Image both = load_image(dir_ / "alpha.webp", with_alpha);
  ASSERT_EQ(both.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U8}));
  const std::vector<std::byte> got = test::pixel_bytes_of(both.view());
  ASSERT_EQ(got.size(), rgba.size());
  EXPECT_EQ(std::memcmp(got.data(), rgba.data(), rgba.size()), 0);
}

TEST_F(ImageFiles, RgbaWebpOutputsKeepTheColourUnderEveryAlpha) {
  // One colour under every alpha, written lossy (8- and 16-bit): the colour
  // read back within the coding's loss everywhere, fully transparent pixels
  // too, and the alpha exactly. (The image library's writer divided every
  // colour by its alpha: (200, 120, 40) under alpha 64 came back white.)
  constexpr std::uint32_t kWidth = 256, kHeight = 8;
  for (const SampleType sample : {SampleType::U8, SampleType::U16}) {
    const bool deep = sample == SampleType::U16;
    std::vector<std::uint16_t> wide(std::size_t{kWidth} * kHeight * 4);
    std::vector<std::uint8_t> narrow(wide.size());
    for (std::size_t i = 0; i < wide.size() / 4; ++i) {
      const std::uint8_t rgba[4] = {200, 120, 40, static_cast<std::uint8_t>(i % kWidth)};
      for (std::size_t c = 0; c < 4; ++c) {
        narrow[i * 4 + c] = rgba[c];
        wide[i * 4 + c] = static_cast<std::uint16_t>(rgba[c] * 257);
      }
    }
    const ImageView view =
        deep ? ImageView::packed(wide.data(), kWidth, kHeight, {ChannelLayout::RGBA, sample})
             : ImageView::packed(narrow.data(), kWidth, kHeight, {ChannelLayout::RGBA, sample});
    const fs::path path = dir_ / (deep ? "deep.webp" : "rgba.webp");
    const std::string note = save_image(path, view);
    EXPECT_EQ(note.empty(), !deep) << note;
    LoadOptions with_alpha;
    with_alpha.alpha = true;
    const Image back = load_image(path, with_alpha);
    ASSERT_EQ(back.format, (PixelFormat{ChannelLayout::RGBA, SampleType::U8}));
    const std::vector<std::byte> got = test::pixel_bytes_of(back.view());
    ASSERT_EQ(got.size(), narrow.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const int want = narrow[i], have = std::to_integer<int>(got[i]);
      if (i % 4 == 3) {
        ASSERT_EQ(have, want) << "alpha of pixel " << i / 4;
      } else {
        ASSERT_LE(std::abs(have - want), 4) << "sample " << i % 4 << " of pixel " << i / 4;
      }
    }
  }
}

// The offset of the `piece`th strip (tag 273) or tile (324) of a classic
// little-endian TIFF's first directory.
std::size_t tiff_piece_at(const std::string& bytes, std::uint16_t tag, std::size_t piece) {
  const auto u = [&bytes](std::size_t at, int n) {
    std::size_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= std::size_t{static_cast<unsigned char>(bytes.at(at + i))} << (8 * i);
    return v;
  };
  const std::size_t directory = u(4, 4);
  for (std::size_t e = 0; e < u(directory, 2); ++e) {
    const std::size_t at = directory + 2 + 12 * e;
    if (u(at, 2) != tag) continue;
    const std::size_t value = u(at + 8, 4), width = u(at + 2, 2) == 3 ? 2 : 4;
    return u(at + 4, 4) == 1 ? value : u(value + piece * width, static_cast<int>(width));
  }
  return 0;
}

// Damage that libtiff's decoders conceal, saying so only in a message: a
// CCITT Group 4 strip's codes that do not decode (the rest of the row made
// up) and a JPEG-coded strip's damaged data (libjpeg's warning). Refused, as
// a strip that fails to decode is, or, for coded data left over at a JPEG
// strip's end, named in a warning as a JPEG file's is; intact, both read as
// their source.
TEST_F(ImageFiles, TiffDamageItsDecoderConcealsIsRefusedOrNamed) {
  const Image photo = load_image(fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png");
  const ImageView source = photo.view();
  // The photograph's green above 127, as 1-bit samples (0 black).
  const std::uint32_t row_bytes = (source.width + 7) / 8;
  std::string bits(std::size_t{row_bytes} * source.height, '\0');
  for (std::uint32_t y = 0; y < source.height; ++y) {
    const auto* row = reinterpret_cast<const unsigned char*>(source.row(y));
    for (std::uint32_t x = 0; x < source.width; ++x) {
      if (row[3 * x + 1] > 127) bits[y * row_bytes + x / 8] |= static_cast<char>(0x80 >> (x % 8));
    }
  }
  test::TiffBuilder b;
  b.field(256, 3, {source.width}).field(257, 3, {source.height}).field(258, 3, {1});
  b.field(259, 3, {1}).field(262, 3, {1});
  b.offsets(273, {b.blob(bits)}).field(279, 4, {bits.size()});
  const fs::path plain = dir_ / "bilevel.tif", g4 = dir_ / "g4.tif";
  std::ofstream(plain, std::ios::binary) << b.build();
  ASSERT_EQ(std::system(("tiffcp -c g4 '" + plain.string() + "' '" + g4.string() + "'").c_str()), 0)
      << "tiffcp (libtiff-tools) failed";
  const std::vector<std::byte> levels = test::pixel_bytes_of(load_image(plain).view());
  EXPECT_EQ(test::pixel_bytes_of(load_image(g4).view()), levels);

  const fs::path rgb = dir_ / "rgb.tif", jpeg = dir_ / "jpeg.tif";
  save_image(rgb, source);
  ASSERT_EQ(
      std::system(("tiffcp -c jpeg -r 64 '" + rgb.string() + "' '" + jpeg.string() + "'").c_str()),
      0);
  EXPECT_TRUE(load_image(jpeg).warning.empty());

  // 64 bytes in the middle of the first strip overwritten: the fax codes
  // flipped, the JPEG codes as (FF 00) pairs, as the JPEG files' test does.
  const auto damage = [&](const fs::path& from, const std::string& name, bool pairs) {
    std::string bytes = test::file_text(from);
    const std::size_t strip = tiff_piece_at(bytes, 273, 0);
    const std::size_t size = tiff_piece_at(bytes, 279, 0);
    for (std::size_t i = strip + size / 2; i < strip + size / 2 + 64; ++i) {
      bytes.at(i) = pairs ? (i % 2 == 0 ? '\xFF' : '\0') : static_cast<char>(bytes[i] ^ 0x5A);
    }
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  };
  expect_refused(damage(g4, "g4-damaged.tif", false),
                 "g4-damaged.tif: corrupt image: Fax4Decode: ");
  expect_refused(damage(jpeg, "jpeg-damaged.tif", true),
                 "jpeg-damaged.tif: corrupt image: JPEGLib: Corrupt JPEG data");
  // A JPEG strip's codes zeroed: decoded on, the data out of step leaving
  // bytes before the end marker, as a JPEG file's damage does: a warning.
  std::string zeroed = test::file_text(jpeg);
  const std::size_t strip = tiff_piece_at(zeroed, 273, 0);
  const std::size_t size = tiff_piece_at(zeroed, 279, 0);
  std::fill_n(zeroed.begin() + static_cast<std::ptrdiff_t>(strip + size / 4), 32, '\0');
  std::ofstream(dir_ / "jpeg-zeroed.tif", std::ios::binary) << zeroed;
  const Image concealed = load_image(dir_ / "jpeg-zeroed.tif");
  EXPECT_NE(concealed.warning.find("JPEGLib: Corrupt JPEG data: "), std::string::npos)
      << concealed.warning;
  EXPECT_NE(concealed.warning.find(" extraneous bytes before marker 0xd9"), std::string::npos)
      << concealed.warning;
  EXPECT_NE(test::pixel_bytes_of(concealed.view()), test::pixel_bytes_of(load_image(jpeg).view()));
}

TEST_F(ImageFiles, DamagedOrCraftedTiffStripsAreRefused) {
  const Image photo = load_image(fs::path(GPUHIST_SOURCE_DIR) / "data/coffee.png");
  const ImageView source = photo.view();
  // Deflate TIFFs of strips, of planes apart, and of tiles (OpenImageIO writes
  // the horizontal predictor), read exactly.
  const auto write_zip = [&](const std::string& name,
                             const std::function<void(OIIO::ImageSpec&)>& set) {
    const fs::path path = dir_ / name;
    auto out = OIIO::ImageOutput::create(path.string());
    OIIO::ImageSpec spec(600, 400, 3, OIIO::TypeDesc::UINT8);
    spec.attribute("compression", "zip");
    set(spec);
    EXPECT_TRUE(out && out->open(path.string(), spec)) << name;
    EXPECT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, source.data, OIIO::AutoStride,
                                 static_cast<OIIO::stride_t>(source.stride)));
    out->close();
    EXPECT_EQ(test::pixel_bytes_of(load_image(path).view()), test::pixel_bytes_of(source)) << name;
    return test::file_text(path);
  };
  std::string strips =
      write_zip("zip.tif", [](OIIO::ImageSpec& spec) { spec.attribute("tiff:RowsPerStrip", 8); });
  // Planes stored apart, each one strip of every row (OpenImageIO writes a strip a row):
  // read by libtiff whole, as a row at a time would seek back into its strips.
  std::array<std::string, 3> planes;
  for (std::uint32_t y = 0; y < source.height; ++y) {
    const auto* row = reinterpret_cast<const char*>(source.data) + y * source.stride;
    for (std::uint32_t x = 0; x < source.width; ++x) {
      for (int c = 0; c < 3; ++c) planes[c] += row[x * 3 + c];
    }
  }
  std::ofstream(dir_ / "planes.tif", std::ios::binary)
      << tiff_of_strips(source.width, source.height, 3, 8, 2,
                        {deflated(planes[0]), deflated(planes[1]), deflated(planes[2])});
  EXPECT_EQ(test::pixel_bytes_of(load_image(dir_ / "planes.tif").view()),
            test::pixel_bytes_of(source));
  std::string tiles = write_zip(
      "tiles.tif", [](OIIO::ImageSpec& spec) { spec.tile_width = spec.tile_height = 128; });
  // The first strip's zlib header damaged, and the second tile's.
  const std::size_t strip = tiff_piece_at(strips, 273, 0);
  ASSERT_EQ(strips.at(strip), '\x78');
  strips[strip] = static_cast<char>(strips[strip] ^ 0xFF);
  std::ofstream(dir_ / "damaged.tif", std::ios::binary) << strips;
  expect_refused(dir_ / "damaged.tif", "corrupt or truncated image: Decoding error at scanline 0");
  // (Damaged within, as OpenImageIO's threads let pass.)
  const std::size_t tile = tiff_piece_at(tiles, 324, 1);
  ASSERT_EQ(tiles.at(tile), '\x78');
  for (std::size_t i = tile + 20; i < tile + 60; ++i) tiles[i] = static_cast<char>(tiles[i] ^ 0x5A);
  std::ofstream(dir_ / "damaged-tile.tif", std::ios::binary) << tiles;
  expect_refused(dir_ / "damaged-tile.tif", "corrupt or truncated image: Decoding error");
  std::ofstream(dir_ / "garbage.tif", std::ios::binary)
      << one_strip_tiff(64, 64, 1, 8, std::string(100, '\x12'));
  expect_refused(dir_ / "garbage.tif", "corrupt or truncated image: Decoding error");
  // One channel said to be in planes apart is one plane to OpenImageIO, which inflates it
  // itself: read a row at a time too.
  std::string grey = deflated(std::string(64 * 64, '\x40'));
  grey[0] = static_cast<char>(grey[0] ^ 0xFF);
  std::ofstream(dir_ / "grey-planes.tif", std::ios::binary)
      << tiff_of_strips(64, 64, 1, 8, 2, {grey});
  expect_refused(dir_ / "grey-planes.tif", "corrupt or truncated image: Decoding error");
  for (const std::uint16_t compression : {5, 8, 32773}) {
    std::ofstream(dir_ / "claims.tif", std::ios::binary)
        << one_strip_tiff(16384, 16384, 3, compression, std::string(100, '\0'));
    expect_refused(dir_ / "claims.tif", "its header claims 16384x16384 pixels, more than its");
  }
  // Uncompressed strips hold as many bytes as their rows: one that ends past
  // the end of the file is refused from the header (the library counted the
  // missing samples of 1-bit strips as 0).
  std::ofstream(dir_ / "claims.tif", std::ios::binary)
      << one_strip_tiff(16384, 16384, 3, 1, std::string(100, '\0'));
  expect_refused(dir_ / "claims.tif",
                 "truncated image: its uncompressed TIFF strip 0 of 805306368 bytes at byte");
  std::string rows;
  for (int i = 0; i < 600 * 400 * 3; ++i) rows += static_cast<char>(i * 7);
  const std::string uncut = one_strip_tiff(600, 400, 3, 1, rows);
  std::ofstream(dir_ / "cut.tif", std::ios::binary) << uncut.substr(0, uncut.size() / 2);
  expect_refused(dir_ / "cut.tif",
                 "truncated image: its uncompressed TIFF strip 0 of 720000 bytes");
  // A 1-bit strip cut short (the library counted its missing pixels as black).
  std::vector<unsigned> bilevel(23 * 5);
  for (std::size_t i = 0; i < bilevel.size(); ++i) bilevel[i] = i % 3 == 0 ? 1 : 0;
  const std::string one_bit = grey_tiff(1, false, bilevel);
  std::ofstream(dir_ / "cut-bits.tif", std::ios::binary) << one_bit.substr(0, one_bit.size() - 4);
  expect_refused(dir_ / "cut-bits.tif",
                 "truncated image: its uncompressed TIFF strip 0 of 15 bytes");
}

// What valgrind found decoders doing with crafted files (tests/fuzz/regressions/):
// each is refused from the header, or read from a copy or into rows made safe.
TEST_F(ImageFiles, DecoderFaultsSeenByMemcheckAreRefusedFirst) {
  const fs::path findings = fs::path(GPUHIST_SOURCE_DIR) / "tests/fuzz/regressions";
  const auto refused = [&](const std::string& name, const std::string& why) {
    expect_refused(findings / name, why);
  };
  refused("dpx-one-channel-10bit-row-overrun.dpx",
          "one-channel 10-bit DPX rows of 7 pixels, not a multiple of 3");
  refused("dpx-truncated-pixels-unwritten.dpx",
          "truncated image: its DPX pixels take 28 bytes from byte 8192, past the end of "
          "its 8195 bytes");
  refused("dpx-negative-row-padding.dpx",
          "corrupt image: its DPX rows end in 4294967040 bytes of padding");
  refused("bmp-short-info-header.bmp", "a BMP info header of 7 bytes");
  refused("exr-zip-chunk-inflates-short.exr",
          "corrupt or truncated image: Some scanline chunks were missing or corrupted");
  refused("exr-manifest-zip-chunk-inflates-short.exr",
          "corrupt or truncated image: Some scanline chunks were missing or corrupted");
  refused("exr-multipart-zip-chunk-inflates-short.exr",
          "corrupt or truncated image: Some scanline chunks were missing or corrupted");
  refused(
      "exr-none-chunk-short.exr",
      "corrupt image: its OpenEXR chunk at byte 658 holds line 0 in 96 bytes, not a line of 384");
  refused("bmp-os2-16-byte-header.bmp", "a BMP info header of 16 bytes");
  refused("tiff-strip-past-end.tif",
          "truncated image: its TIFF strip 0 of 126 bytes at byte 364 runs past the end of "
          "its 190 bytes");
  refused("tiff-strip-offsets-missing.tif",
          "corrupt TIFF: 1 strip offsets and 1 byte counts for the 191 strips its 382 "
          "rows need");
  EXPECT_GT(load_image(findings / "dpx-unended-text-fields.dpx").width, 0U);

  // Real DPX files of those shapes read, sample for sample, and cut short
  // they are refused as truncated.
  // (OpenImageIO writes one-channel 10-bit rows packed, not filled.) Odd
  // widths: 8- and 16-bit rows are not padded.
  struct Case {
    int channels, width, bits;
  };
  for (const Case c : {Case{1, 9, 10}, Case{1, 7, 10}, Case{3, 7, 10}, Case{3, 7, 16}, Case{1, 7, 16},
                       Case{3, 7, 8}}) {
    const int channels = c.channels, width = c.width;
    const auto image = test::make_image(
        {channels == 1 ? ChannelLayout::Grey : ChannelLayout::RGB, SampleType::U16},
        static_cast<std::uint32_t>(width), 5, test::Content::Random);
    const fs::path path = dir_ / ("dpx" + std::to_string(channels) + "x" + std::to_string(width) + "x" +
                                  std::to_string(c.bits) + ".dpx");
    {
      auto out = OIIO::ImageOutput::create(path.string());
      OIIO::ImageSpec spec(width, 5, channels, c.bits == 8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16);
      spec.attribute("oiio:BitsPerSample", c.bits);
      ASSERT_TRUE(out && out->open(path.string(), spec));
      ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT16, image.view.data, OIIO::AutoStride,
                                   static_cast<OIIO::stride_t>(image.view.stride)));
      out->close();
    }
    const Image read = load_image(path);
    ASSERT_EQ(read.width, static_cast<std::uint32_t>(width));
    // Stored as 10 or 16 bits: the top bits of each sample come back, widened.
    // (8-bit samples come back as bytes, rounded from 16 bits: read, not compared.)
    const int kept = c.bits == 10 ? 6 : 0;
    for (std::uint32_t y = 0; c.bits != 8 && y < 5; ++y) {
      const auto* want = reinterpret_cast<const std::uint16_t*>(
          static_cast<const std::byte*>(image.view.data) + y * image.view.stride);
      const auto* got = reinterpret_cast<const std::uint16_t*>(
          static_cast<const std::byte*>(read.view().data) + y * read.stride);
      for (int i = 0; i < width * channels; ++i) {
        ASSERT_EQ(got[i] >> kept, want[i] >> kept)
            << channels << " channels, " << c.bits << " bits, row " << y << " sample " << i;
      }
    }
    const auto bytes = fs::file_size(path);
    fs::resize_file(path, bytes - 1);
    try {
      (void)load_image(path);
      ADD_FAILURE() << path << " read cut short";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("truncated image: its DPX pixels"), std::string::npos)
          << e.what();
    }
  }
}

// DPX files as FFmpeg writes them, their pixels from byte 1664 (no film or
// television header) and 8-, 12- and 16-bit rows padded to a 32-bit word,
// read sample for sample as FFmpeg's own decoder reads them (12-bit samples
// widened to 16 bits by each its own way: their top 12 bits compared).
TEST_F(ImageFiles, DpxFilesOfFfmpegReadAsItDecodesThem) {
  struct Case {
    const char* pixels;  // written
    const char* raw;     // FFmpeg's decode, as gpuhist reads it (alpha apart)
    std::size_t channels, bytes;
    unsigned dropped = 0;  // low bits not compared
  };
  for (const Case c : {Case{"rgb24", "rgb24", 3, 1}, Case{"rgba", "rgb24", 3, 1},
                       Case{"gray", "gray", 1, 1}, Case{"rgb48le", "rgb48le", 3, 2},
                       Case{"gbrp10le", "rgb48le", 3, 2}, Case{"gbrp12le", "rgb48le", 3, 2, 4}}) {
    {
      const std::string size = "67:41";  // rows of 201 and 402 bytes, padded
      const fs::path dpx = dir_ / "ffmpeg.dpx", raw = dir_ / "ffmpeg.raw";
      ASSERT_TRUE(test::ffmpeg("-y -f lavfi -i testsrc2=size=68x42,scale=" + std::string(size) +
                               " -frames:v 1 -pix_fmt " + c.pixels + " '" + dpx.string() + "'"));
      ASSERT_TRUE(test::ffmpeg("-y -i '" + dpx.string() + "' -f rawvideo -pix_fmt " + c.raw + " '" +
                               raw.string() + "'"));
      const Image read = load_image(dpx);
      const std::string want = test::file_text(raw);
      const std::size_t row = std::size_t{read.width} * c.channels * c.bytes;
      ASSERT_EQ(want.size(), row * read.height) << c.pixels << " " << size;
      for (std::uint32_t y = 0; y < read.height; ++y) {
        const auto* got =
            reinterpret_cast<const unsigned char*>(read.storage.data()) + y * read.stride;
        const auto* expected = reinterpret_cast<const unsigned char*>(want.data()) + y * row;
        for (std::size_t i = 0; i < row; i += c.bytes) {
          const unsigned g = c.bytes == 2 ? unsigned(got[i] | got[i + 1] << 8) : got[i];
          const unsigned e =
              c.bytes == 2 ? unsigned(expected[i] | expected[i + 1] << 8) : expected[i];
          ASSERT_EQ(g >> c.dropped, e >> c.dropped)
              << c.pixels << " " << size << ", row " << y << ", sample " << i / c.bytes;
        }
      }
    }
  }
}

// BMPs of every depth and coding FFmpeg writes read; a coding the depth does
// not take (24-bit pixels run-length coded crashed the reader) and pixels
// placed past the end of the file are refused from the header.
TEST_F(ImageFiles, BmpCodingsAndOffsetsAreCheckedFromTheHeader) {
  for (const char* pixels : {"bgr24", "bgra", "pal8", "gray", "rgb565", "rgb555", "monob"}) {
    const fs::path path = dir_ / (std::string(pixels) + ".bmp");
    ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=40x16 -frames:v 1 -pix_fmt " +
                             std::string(pixels) + " '" + path.string() + "'"));
    const Image read = load_image(path);
    EXPECT_EQ(read.width, 40U) << pixels;
    // A grey palette (8-bit gray, 1-bit black and white) is grey, its levels
    // FFmpeg's own decode's.
    const bool grey = std::string(pixels) == "gray" || std::string(pixels) == "monob";
    EXPECT_EQ(read.format.layout, grey ? ChannelLayout::Grey : ChannelLayout::RGB) << pixels;
    if (grey) {
      const fs::path raw = dir_ / (std::string(pixels) + ".grey");
      ASSERT_TRUE(test::ffmpeg("-i '" + path.string() + "' -f rawvideo -pix_fmt gray '" +
                               raw.string() + "'"));
      const std::string want = test::file_text(raw);
      EXPECT_EQ(
          test::pixel_bytes_of(read.view()),
          std::vector<std::byte>(reinterpret_cast<const std::byte*>(want.data()),
                                 reinterpret_cast<const std::byte*>(want.data()) + want.size()))
          << pixels;
    }
  }
  // Run-length 8-bit pixels of a grey palette (which the image library's
  // grey reading garbled: three bytes a pixel written into rows of one) and
  // of a colour one: runs, an absolute run, ends of line and of bitmap.
  for (const bool grey : {true, false}) {
    std::string bmp = "BM";
    const auto u16 = [&](std::uint32_t v) { bmp += {char(v & 0xFF), char(v >> 8)}; };
    const auto u32 = [&](std::uint32_t v) { u16(v & 0xFFFF), u16(v >> 16); };
    const std::string palette = grey ? std::string("\0\0\0\0<<<\0xxx\0\xB4\xB4\xB4\0", 16)
                                     : std::string("\0\0\0\0\x10\x20\x30\0xxx\0\x01\x02\x03\0", 16);
    const std::string pixels("\x02\x02\x02\x03\0\0\0\x04\x01\x02\x03\x01\0\x01", 14);
    u32(14 + 40 + 16 + 14), u32(0), u32(14 + 40 + 16);  // file header
    u32(40), u32(4), u32(2), u16(1), u16(8), u32(1), u32(14), u32(2835), u32(2835), u32(4), u32(0);
    std::ofstream(dir_ / "rle8.bmp", std::ios::binary) << bmp + palette + pixels;
    const Image read = load_image(dir_ / "rle8.bmp");
    ASSERT_EQ(read.format.layout, grey ? ChannelLayout::Grey : ChannelLayout::RGB);
    // Top row (stored second) 1 2 3 1, bottom row 2 2 3 3: palette entries
    // as stored (blue, green, red), read as red, green, blue.
    const std::uint8_t rows[2][4] = {{1, 2, 3, 1}, {2, 2, 3, 3}};
    const std::size_t channels = grey ? 1 : 3;
    for (std::uint32_t y = 0; y < 2; ++y) {
      const auto* row =
          reinterpret_cast<const unsigned char*>(read.storage.data()) + y * read.stride;
      for (std::uint32_t x = 0; x < 4; ++x) {
        for (std::size_t c = 0; c < channels; ++c) {
          const auto entry = static_cast<std::size_t>(rows[y][x]) * 4;
          EXPECT_EQ(row[x * channels + c],
                    static_cast<unsigned char>(palette[entry + (grey ? 0 : 2 - c)]))
              << (grey ? "grey" : "colour") << " row " << y << " pixel " << x;
        }
      }
    }
  }
  std::ifstream in(dir_ / "bgr24.bmp", std::ios::binary);
  const std::string plain((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto patched = [&](const std::string& name, std::size_t at, std::uint32_t value) {
    std::string bytes = plain;
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>(value >> (8 * i));
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  };
  const std::pair<fs::path, std::string> refused[] = {
      {patched("rle24.bmp", 30, 1), "a BMP of 24-bit pixels in coding 1"},
      {patched("far.bmp", 10, 1U << 30), "its BMP pixels start at byte 1073741824, outside"},
      {fs::path(GPUHIST_SOURCE_DIR) / "tests/fuzz/regressions/bmp-24bit-rle-offset-segv.bmp",
       "its BMP pixels start at byte 2617245696"},
  };
  for (const auto& [path, message] : refused) {
    try {
      (void)load_image(path);
      ADD_FAILURE() << path << " read";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Input);
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// A 32-bit BMP of `pixels` (RGBA, 4 bytes each, rows top down), each
// channel's byte in a pixel at `at` (R, G, B, the fourth), and `masks` (R, G,
// B, A) after an info header of `header` bytes in `coding` (0 plain, 3 bit
// fields, 6 bit fields with alpha).
std::string bmp32(std::uint32_t width, std::uint32_t height,
                  const std::vector<unsigned char>& pixels, std::array<int, 4> at,
                  std::array<std::uint32_t, 4> masks, std::uint32_t header, std::uint32_t coding) {
  std::string info(header, '\0');
  const auto put = [](std::string& s, std::size_t i, std::uint32_t v, int n) {
    for (int k = 0; k < n; ++k) s[i + k] = static_cast<char>(v >> (8 * k));
  };
  put(info, 0, header, 4);
  put(info, 4, width, 4);
  put(info, 8, static_cast<std::uint32_t>(-static_cast<std::int32_t>(height)), 4);  // top down
  put(info, 12, 1, 2);
  put(info, 14, 32, 2);
  put(info, 16, coding, 4);
  std::string after;  // masks after a 40-byte header
  const int held = coding == 0 ? 0 : header > 40 ? (header >= 56 ? 4 : 3) : (coding == 6 ? 4 : 3);
  for (int c = 0; c < held; ++c) {
    if (header > 40) {
      put(info, 40 + 4 * static_cast<std::size_t>(c), masks[static_cast<std::size_t>(c)], 4);
    } else {
      after.resize(after.size() + 4);
      put(after, after.size() - 4, masks[static_cast<std::size_t>(c)], 4);
    }
  }
  std::string rows(std::size_t{width} * height * 4, '\0');
  for (std::size_t p = 0; p < std::size_t{width} * height; ++p) {
    for (std::size_t c = 0; c < 4; ++c)
      rows[p * 4 + static_cast<std::size_t>(at[c])] = static_cast<char>(pixels[p * 4 + c]);
  }
  std::string file(14, '\0');
  file[0] = 'B';
  file[1] = 'M';
  const auto offset = static_cast<std::uint32_t>(14 + info.size() + after.size());
  put(file, 2, offset + static_cast<std::uint32_t>(rows.size()), 4);
  put(file, 10, offset, 4);
  return file + info + after + rows;
}

// 32-bit BMPs read as their bit fields say (the image library takes every one
// for B, G, R and alpha bytes): channels in any byte order, the fourth byte
// unused where bit fields name none, and alpha where a mask names it or the
// pixels are plain, unless it is 0 in every pixel (FFmpeg's rule for plain
// pixels, browsers' for masks: writers leave it 0). Masks of other than whole
// bytes, or two on one byte, are refused.
TEST_F(ImageFiles, ThirtyTwoBitBmpsReadAsTheirBitFieldsSay) {
  constexpr std::uint32_t w = 7, h = 5;
  std::mt19937 random(21);
  std::vector<unsigned char> rgba(w * h * 4);
  for (auto& v : rgba) v = static_cast<unsigned char>(random());
  std::vector<unsigned char> zero_alpha = rgba;
  for (std::size_t p = 0; p < w * h; ++p) zero_alpha[p * 4 + 3] = 0;
  struct Case {
    const char* name;
    std::array<int, 4> at;
    std::array<std::uint32_t, 4> masks;
    std::uint32_t header, coding;
    bool zero, alpha;
  };
  const Case cases[] = {
      {"bgra-v5", {2, 1, 0, 3}, {0xFF0000, 0xFF00, 0xFF, 0xFF000000}, 124, 3, false, true},
      {"rgba-v5", {0, 1, 2, 3}, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 124, 3, false, true},
      {"abgr-v4", {3, 2, 1, 0}, {0xFF000000, 0xFF0000, 0xFF00, 0xFF}, 108, 3, false, true},
      {"xbgr-v4", {3, 2, 1, 0}, {0xFF000000, 0xFF0000, 0xFF00, 0}, 108, 3, false, false},
      {"rgbx-v3", {0, 1, 2, 3}, {0xFF, 0xFF00, 0xFF0000, 0}, 40, 3, false, false},
      {"rgba-v3-coding6", {0, 1, 2, 3}, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 40, 6, false, true},
      {"plain", {2, 1, 0, 3}, {0, 0, 0, 0}, 40, 0, false, true},
      {"plain-zero", {2, 1, 0, 3}, {0, 0, 0, 0}, 40, 0, true, false},
      {"rgba-v5-zero", {0, 1, 2, 3}, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, 124, 3, true, false},
  };
  LoadOptions with_alpha;
  with_alpha.alpha = true;
  for (const Case& c : cases) {
    const std::vector<unsigned char>& pixels = c.zero ? zero_alpha : rgba;
    const fs::path path = dir_ / (std::string(c.name) + ".bmp");
    std::ofstream(path, std::ios::binary) << bmp32(w, h, pixels, c.at, c.masks, c.header, c.coding);
    for (const bool keep : {true, false}) {
      const Image image = load_image(path, keep ? with_alpha : LoadOptions{});
      const std::size_t n = keep && c.alpha ? 4 : 3;
      ASSERT_EQ(image.format,
                (PixelFormat{n == 4 ? ChannelLayout::RGBA : ChannelLayout::RGB, SampleType::U8}))
          << c.name << " " << keep;
      EXPECT_EQ(image.alpha, !keep && c.alpha) << c.name;
      for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
          for (std::size_t k = 0; k < n; ++k) {
            ASSERT_EQ(static_cast<unsigned char>(image.view().row(y)[x * n + k]),
                      pixels[(y * w + x) * 4 + k])
                << c.name << " " << x << "," << y << " channel " << k;
          }
        }
      }
    }
  }
  const fs::path ten = dir_ / "ten-bit.bmp";
  std::ofstream(ten, std::ios::binary)
      << bmp32(w, h, rgba, {2, 1, 0, 3}, {0x3FF00000, 0xFFC00, 0x3FF, 0}, 124, 3);
  expect_refused(ten,
                 "a 32-bit BMP whose bit fields (red 0x3FF00000, green 0x000FFC00, blue "
                 "0x000003FF, alpha 0x00000000) are not one whole byte each");
  const fs::path twice = dir_ / "twice.bmp";
  std::ofstream(twice, std::ios::binary)
      << bmp32(w, h, rgba, {2, 1, 0, 3}, {0xFF, 0xFF, 0xFF00, 0}, 124, 3);
  expect_refused(twice, "put two on one byte");
}

// Run-length BMPs (8- and 4-bit) whose every row ends with an end of line,
// the last one just before the end of the bitmap, as GIMP and ImageMagick
// write them (the image library refused the end of the bitmap after the last
// row as a pixel out of bounds), read as the same pixels coded without it.
TEST_F(ImageFiles, RunLengthBmpsEndingEveryRowRead) {
  constexpr std::uint32_t w = 6, h = 4;
  const std::string palette("\0\0\0\0\0\0\xFF\0\0\xFF\0\0\xFF\0\0\0", 16);  // BGR0
  const auto index = [](std::uint32_t x, std::uint32_t y) { return (x + 2 * y) % 4; };
  const auto file = [&](bool four, bool last_end_of_line) {
    std::string rle;
    for (std::uint32_t r = 0; r < h; ++r) {
      const std::uint32_t y = h - 1 - r;  // bottom-up
      for (std::uint32_t x = 0; x < w; x += 2) {
        // Runs of one pixel (8-bit), or of two (4-bit: both nibbles given).
        if (four) {
          rle += '\x02';
          rle += static_cast<char>(index(x, y) << 4 | index(x + 1, y));
        } else {
          for (std::uint32_t k = 0; k < 2; ++k) {
            rle += '\x01';
            rle += static_cast<char>(index(x + k, y));
          }
        }
      }
      if (r + 1 < h || last_end_of_line) rle += std::string("\0\0", 2);
    }
    rle += std::string("\0\x01", 2);
    std::string bmp = "BM" + std::string(12, '\0');
    std::string info(40, '\0');
    const auto put = [](std::string& s, std::size_t at, std::uint32_t v, int n) {
      for (int i = 0; i < n; ++i)
        s[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
    };
    put(info, 0, 40, 4);
    put(info, 4, w, 4);
    put(info, 8, h, 4);
    put(info, 12, 1, 2);
    put(info, 14, four ? 4 : 8, 2);
    put(info, 16, four ? 2 : 1, 4);
    put(info, 20, static_cast<std::uint32_t>(rle.size()), 4);
    put(info, 32, 4, 4);  // colours used
    const auto offset = static_cast<std::uint32_t>(14 + info.size() + palette.size());
    put(bmp, 2, offset + static_cast<std::uint32_t>(rle.size()), 4);
    put(bmp, 10, offset, 4);
    return bmp + info + palette + rle;
  };
  for (const bool four : {false, true}) {
    const fs::path ended = dir_ / (four ? "ended4.bmp" : "ended8.bmp");
    const fs::path plain = dir_ / (four ? "plain4.bmp" : "plain8.bmp");
    std::ofstream(ended, std::ios::binary) << file(four, true);
    std::ofstream(plain, std::ios::binary) << file(four, false);
    const Image image = load_image(ended);
    const Image expected = load_image(plain);
    ASSERT_EQ(image.format, expected.format);
    ASSERT_EQ(image.format.layout, ChannelLayout::RGB);
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        // Palette entry i: black, red, green, blue (stored B, G, R).
        const std::uint8_t* px =
            reinterpret_cast<const std::uint8_t*>(image.view().row(y)) + std::size_t{x} * 3;
        const std::uint32_t i = index(x, y);
        EXPECT_EQ(px[0], i == 1 ? 255 : 0) << four << " " << x << "," << y;
        EXPECT_EQ(px[1], i == 2 ? 255 : 0) << four << " " << x << "," << y;
        EXPECT_EQ(px[2], i == 3 ? 255 : 0) << four << " " << x << "," << y;
      }
      EXPECT_EQ(std::memcmp(image.view().row(y), expected.view().row(y), w * 3), 0) << y;
    }
  }
}

// A header placing the pixels where their last row's coordinate does not fit
// an int (a DPX with a y offset of 2^31 - 1, found by fuzz_image) is refused
// before any row is asked for.
TEST_F(ImageFiles, PixelsPlacedPastTheLargestCoordinateAreRefused) {
  try {
    (void)load_image(fs::path(GPUHIST_SOURCE_DIR) /
                     "tests/fuzz/regressions/dpx-y-offset-int-overflow.dpx");
    FAIL() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find("its pixels are placed at 0,2147483647, past the largest "
                                         "coordinate"),
              std::string::npos)
        << e.what();
  }
}

// The proxy JPEG and DPX files are read through from memory gives the bytes
// of the file and nothing else: no offset or seek a header can make reads
// outside them (OpenImageIO's IOMemReader read before its buffer for a
// negative offset). Its buffer here is exactly the file, so ASan sees any
// read past either end.
TEST(MemoryReader, ReadsOnlyTheFilesBytes) {
  const std::vector<unsigned char> file = {10, 11, 12, 13, 14, 15, 16, 17};
  const auto bytes = std::make_unique<unsigned char[]>(file.size());
  std::memcpy(bytes.get(), file.data(), file.size());
  images::MemoryReader reader(bytes.get(), file.size());
  EXPECT_EQ(reader.size(), 8U);
  // What the JPEG reader relies on: a memreader whose buffer is the file.
  EXPECT_STREQ(reader.proxytype(), "memreader");
  EXPECT_EQ(reader.buffer().data(), bytes.get());
  EXPECT_EQ(reader.buffer().size(), file.size());
  unsigned char out[16] = {};
  EXPECT_EQ(reader.pread(out, 3, 2), 3U);
  EXPECT_EQ(out[0], 12);
  EXPECT_EQ(out[2], 14);
  EXPECT_EQ(reader.pread(out, 16, 5), 3U);  // clipped at the end
  EXPECT_EQ(out[2], 17);
  EXPECT_EQ(reader.pread(out, 16, 8), 0U);
  EXPECT_EQ(reader.pread(out, 16, -1), 0U);
  EXPECT_EQ(reader.pread(out, 168, -88), 0U);  // the DPX reader's request
  EXPECT_EQ(reader.pread(out, 4, std::numeric_limits<std::int64_t>::min()), 0U);
  EXPECT_EQ(reader.pread(out, std::numeric_limits<std::size_t>::max(), 1), 7U);
  EXPECT_EQ(reader.pread(out, 0, 0), 0U);
  // read() moves on by what it read; a negative seek is refused.
  ASSERT_TRUE(reader.seek(6));
  EXPECT_EQ(reader.read(out, 4), 2U);
  EXPECT_EQ(reader.tell(), 8);
  EXPECT_EQ(reader.read(out, 4), 0U);
  EXPECT_FALSE(reader.seek(-8));
  EXPECT_EQ(reader.tell(), 8);
  ASSERT_TRUE(reader.seek(-3, SEEK_END));
  EXPECT_EQ(reader.read(out, 1), 1U);
  EXPECT_EQ(out[0], 15);
  ASSERT_TRUE(reader.seek(100));
  EXPECT_EQ(reader.read(out, 1), 0U);
}

TEST(ImageExtensions, KnownAndUnknown) {
  EXPECT_TRUE(has_image_extension("a/b.PNG"));
  EXPECT_TRUE(has_image_extension("x.jpeg"));
  EXPECT_TRUE(has_image_extension("x.exr"));
  EXPECT_TRUE(has_image_extension("x.webp"));
  EXPECT_FALSE(has_image_extension("x.txt"));
  EXPECT_FALSE(has_image_extension("README"));
}

// A JPEG's chroma subsampling, read from its framing alone, is what the image
// library reads from the whole file: at each sampling, grey, with fill bytes
// and standalone markers before the frame header; every prefix of the file
// gives it or nothing, reading nothing outside the bytes (AddressSanitizer).
TEST_F(ImageFiles, JpegFramingGivesTheSubsampling) {
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 40, 24, test::Content::Random, 9);
  for (const char* sampling : {"4:4:4", "4:2:2", "4:2:0", "4:1:1", "grey"}) {
    const fs::path path = dir_ / "sampled.jpg";
    const bool grey = std::string_view(sampling) == "grey";
    {
      OIIO::ImageSpec spec(40, 24, grey ? 1 : 3, OIIO::TypeDesc::UINT8);
      if (!grey) spec.attribute("jpeg:subsampling", sampling);
      spec.attribute("ImageDescription", "framing");  // a segment before the frame header
      std::vector<unsigned char> pixels(40 * 24 * 3);
      std::memcpy(pixels.data(), image.view.data, pixels.size());
      auto out = OIIO::ImageOutput::create(path.string());
      ASSERT_TRUE(out && out->open(path.string(), spec) &&
                  out->write_image(OIIO::TypeDesc::UINT8, pixels.data()) && out->close());
    }
    const std::string expected = grey ? "" : sampling;
    auto in = OIIO::ImageInput::open(path.string());
    ASSERT_TRUE(in);
    ASSERT_EQ(in->spec().get_string_attribute("jpeg:subsampling"), expected);
    const std::vector<unsigned char> bytes = test::file_bytes(path);
    EXPECT_EQ(io::jpeg_subsampling(bytes), expected);
    const io::JpegHeader header = io::jpeg_header(bytes);
    ASSERT_GT(header.scan, 0U);
    ASSERT_FALSE(header.segments.empty());
    // Fill bytes and standalone markers (RST0, TEM) after the start of image.
    std::vector<unsigned char> padded(bytes.begin(), bytes.begin() + 2);
    for (unsigned char b : {0xFF, 0xFF, 0xD0, 0xFF, 0x01}) padded.push_back(b);
    padded.insert(padded.end(), bytes.begin() + 2, bytes.end());
    EXPECT_EQ(io::jpeg_subsampling(padded), expected);
    EXPECT_EQ(io::jpeg_header(padded).segments.size(), header.segments.size());
    // The subsampling is found once the frame header is whole, the scan once
    // its header segment is; until then the framing is cut.
    const io::JpegSegment* frame = io::jpeg_frame_header(header);
    ASSERT_NE(frame, nullptr);
    const std::size_t sos_end =
        header.scan + 2 + (std::size_t{bytes[header.scan + 2]} << 8 | bytes[header.scan + 3]);
    for (std::size_t n = 0; n <= sos_end; ++n) {
      // In a block of its own size: a read past it is one past the allocation.
      const auto exact = std::make_unique<unsigned char[]>(std::max<std::size_t>(n, 1));
      std::copy_n(bytes.begin(), n, exact.get());
      EXPECT_EQ(io::jpeg_subsampling({exact.get(), n}), n >= frame->end ? expected : "") << n;
      const io::JpegHeader part = io::jpeg_header({exact.get(), n});
      EXPECT_EQ(part.scan, n >= sos_end ? header.scan : 0) << n;
      EXPECT_EQ(part.cut, n >= 2 && n < sos_end) << n;
    }
    // The factors as FFmpeg writes them (every component 1x2 for 4:4:4,
    // luma 2x2 and chroma 1x2 for 4:2:2), and ones that name no subsampling.
    if (!grey) {
      std::vector<unsigned char> factors = bytes;
      const auto set = [&](unsigned char y, unsigned char cb, unsigned char cr) {
        factors[frame->begin + 11] = y;
        factors[frame->begin + 14] = cb;
        factors[frame->begin + 17] = cr;
        return io::jpeg_subsampling(factors);
      };
      EXPECT_EQ(set(0x12, 0x12, 0x12), "4:4:4");
      EXPECT_EQ(set(0x22, 0x12, 0x12), "4:2:2");
      EXPECT_EQ(set(0x44, 0x22, 0x22), "4:2:0");
      EXPECT_EQ(set(0x12, 0x11, 0x11), "4:4:0");
      EXPECT_EQ(set(0x22, 0x11, 0x12), "");  // Cb and Cr apart
      EXPECT_EQ(set(0x22, 0x00, 0x00), "");  // no factor: damage
      EXPECT_EQ(set(0x32, 0x22, 0x22), "");  // 1.5
    }
    // Damage where a marker belongs ends the walk there, not cut.
    std::vector<unsigned char> damaged = bytes;
    damaged[frame->begin] = 0x00;
    EXPECT_FALSE(io::jpeg_header(damaged).cut);
    EXPECT_EQ(io::jpeg_subsampling(damaged), "");
  }
  EXPECT_EQ(io::jpeg_subsampling(test::file_bytes(dir_ / "missing.jpg")), "");
}

// The metadata an adjusted image keeps is found by reading the source's
// framing, which a damaged file may break anywhere: every prefix of a source
// and every byte of its metadata set to each of a few values leaves the
// encoded file whole (its pixels untouched) or unchanged, and reads nothing
// outside the bytes (AddressSanitizer runs this test too).
TEST_F(ImageFiles, KeptMetadataSurvivesDamagedSources) {
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 24, 16, test::Content::Random, 3);
  for (const char* ext : {".jpg", ".png"}) {
    const fs::path source = dir_ / (std::string("source") + ext);
    {
      OIIO::ImageSpec spec(24, 16, 3, OIIO::TypeDesc::UINT8);
      spec.attribute("Orientation", 6);
      spec.attribute("Make", "TestCam");
      spec.attribute("ImageDescription", "damaged");
      spec.attribute("XResolution", 300.0F);
      // A real profile (libpng checks it): rocket.jpg's Adobe RGB.
      auto rocket = OIIO::ImageInput::open(std::string(GPUHIST_SOURCE_DIR) + "/data/rocket.jpg");
      ASSERT_TRUE(rocket);
      const OIIO::ParamValue* icc = rocket->spec().find_attribute("ICCProfile");
      ASSERT_NE(icc, nullptr);
      spec.attribute("ICCProfile", icc->type(), icc->data());
      auto out = OIIO::ImageOutput::create(source.string());
      ASSERT_TRUE(out && out->open(source.string(), spec) &&
                  out->write_image(OIIO::TypeDesc::UINT8, image.view.data) && out->close());
    }
    const fs::path plain = dir_ / (std::string("plain") + ext);
    save_image(plain, image.view);
    const std::vector<unsigned char> src = test::file_bytes(source);
    const std::vector<unsigned char> encoded = test::file_bytes(plain);
    // The pixels' part of the encoded file (a JPEG's scan, a PNG's last chunks): always kept.
    const std::size_t tail = std::string(ext) == ".jpg" ? encoded.size() / 2 : 24;
    const std::vector<std::byte> pixels = test::pixel_bytes_of(load_image(plain).view());
    const fs::path kept = dir_ / (std::string("kept") + ext);
    std::size_t decoded = 0;
    const auto check = [&](std::span<const unsigned char> damaged, const std::string& what) {
      // In a block of its own size: a read past it is one past the allocation.
      const auto exact = std::make_unique<unsigned char[]>(damaged.size());
      std::copy(damaged.begin(), damaged.end(), exact.get());
      std::vector<unsigned char> out = encoded;
      io::keep_metadata(std::span<const unsigned char>(exact.get(), damaged.size()), out, true);
      if (out == encoded) return;
      ASSERT_GE(out.size(), tail) << what;
      ASSERT_TRUE(std::equal(encoded.end() - static_cast<std::ptrdiff_t>(tail), encoded.end(),
                             out.end() - static_cast<std::ptrdiff_t>(tail)))
          << what;
      // Decoded now and then (every file would take long under the sanitizers): the same pixels.
      if (++decoded % 97 != 1) return;
      std::ofstream(kept, std::ios::binary | std::ios::trunc)
          .write(reinterpret_cast<const char*>(out.data()),
                 static_cast<std::streamsize>(out.size()));
      ASSERT_EQ(test::pixel_bytes_of(load_image(kept).view()), pixels) << what;
    };
    {  // Whole: the metadata goes in, as the image library reads it back.
      std::vector<unsigned char> out = encoded;
      io::keep_metadata(src, out, true);
      const fs::path whole = dir_ / (std::string("whole") + ext);
      std::ofstream(whole, std::ios::binary)
          .write(reinterpret_cast<const char*>(out.data()),
                 static_cast<std::streamsize>(out.size()));
      auto in = OIIO::ImageInput::open(whole.string());
      ASSERT_TRUE(in) << ext;
      EXPECT_EQ(in->spec().get_string_attribute("ImageDescription"), "damaged") << ext;
      EXPECT_NE(in->spec().find_attribute("ICCProfile"), nullptr) << ext;
    }
    if (std::string(ext) == ".jpg") {
      // A phone's multi-picture index (APP2 "MPF"), whose offsets point into the
      // source file past its first image, is never copied; the ICC profile is.
      std::vector<unsigned char> with_mpf(src.begin(), src.begin() + 2);
      const unsigned char mpf[] = {0xFF, 0xE2, 0x00, 0x0C, 'M', 'P', 'F', 0, 1, 2, 3, 4, 5, 6};
      with_mpf.insert(with_mpf.end(), std::begin(mpf), std::end(mpf));
      with_mpf.insert(with_mpf.end(), src.begin() + 2, src.end());
      std::vector<unsigned char> out = encoded;
      io::keep_metadata(with_mpf, out, true);
      const auto has = [&](std::string_view text) {
        return std::search(out.begin(), out.end(), text.begin(), text.end()) != out.end();
      };
      EXPECT_FALSE(has(std::string_view("MPF\0", 4)));
      EXPECT_TRUE(has("ICC_PROFILE"));
      // A grey image gets no colour profile, its Exif still.
      out = encoded;
      io::keep_metadata(src, out, false);
      EXPECT_FALSE(has("ICC_PROFILE"));
      EXPECT_TRUE(has("Exif"));
      // APP11 (JUMBF: content credentials for the source's pixels) is left out.
      std::vector<unsigned char> with_jumbf(src.begin(), src.begin() + 2);
      const unsigned char jumbf[] = {0xFF, 0xEB, 0x00, 0x0A, 'J', 'P', 0, 1, 'j', 'u', 'm', 'b'};
      with_jumbf.insert(with_jumbf.end(), std::begin(jumbf), std::end(jumbf));
      with_jumbf.insert(with_jumbf.end(), src.begin() + 2, src.end());
      out = encoded;
      io::keep_metadata(with_jumbf, out, true);
      EXPECT_FALSE(has("jumb"));
      EXPECT_TRUE(has("Exif"));
      // A source with only its JFIF header gives its density (300 dpi here).
      const unsigned char jfif[] = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J',  'F', 'I', 'F',  0,
                                    1,    2,    1,    0x01, 0x2C, 0x01, 0x2C, 0,   0,   0xFF, 0xD9};
      out = encoded;
      io::keep_metadata(jfif, out, true);
      EXPECT_TRUE(std::search(out.begin(), out.end(), std::begin(jfif) + 2, std::end(jfif) - 2) !=
                  out.end());
    } else {
      const auto has = [](const std::vector<unsigned char>& b, std::string_view text) {
        return std::search(b.begin(), b.end(), text.begin(), text.end()) != b.end();
      };
      std::vector<unsigned char> out = encoded;
      io::keep_metadata(src, out, false);  // grey: no colour profile
      EXPECT_FALSE(has(out, "iCCP"));
      EXPECT_TRUE(has(out, "tEXt"));
      // A text chunk whose CRC is wrong (the decoder passed over it) is not copied.
      std::vector<unsigned char> bad_crc = src;
      const auto text =
          std::search(bad_crc.begin(), bad_crc.end(), std::begin("tEXt"), std::end("tEXt") - 1);
      ASSERT_NE(text, bad_crc.end());
      const std::size_t length = std::size_t{text[-4]} << 24 | std::size_t{text[-3]} << 16 |
                                 std::size_t{text[-2]} << 8 | text[-1];
      text[static_cast<std::ptrdiff_t>(4 + length)] ^= 0x55;  // the CRC's first byte
      out = encoded;
      io::keep_metadata(bad_crc, out, true);
      EXPECT_EQ(
          std::count_if(out.begin(), out.end() - 4,
                        [&](const unsigned char& c) { return std::equal(&c, &c + 4, "tEXt"); }),
          std::count_if(src.begin(), src.end() - 4, [&](const unsigned char& c) {
            return std::equal(&c, &c + 4, "tEXt");
          }) - 1);
      // A second IHDR, empty, where the file ends (after its pixels, no IEND): read
      // within the bytes (AddressSanitizer), not taken for the image's header.
      std::vector<unsigned char> late(src.begin(), src.end() - 12);  // without IEND
      const unsigned char ihdr[] = {0, 0, 0, 0, 'I', 'H', 'D', 'R', 0xA8, 0xA1, 0xAE, 0x0A};
      late.insert(late.end(), std::begin(ihdr), std::end(ihdr));
      // In a block of its own size: a read past it is one past the allocation.
      const auto exact = std::make_unique<unsigned char[]>(late.size());
      std::copy(late.begin(), late.end(), exact.get());
      out = encoded;
      io::keep_metadata(std::span<const unsigned char>(exact.get(), late.size()), out, true);
      EXPECT_TRUE(has(out, "iCCP"));
    }
    for (std::size_t n = 0; n <= src.size(); ++n) {
      check(std::span(src).first(n), std::string(ext) + " cut at " + std::to_string(n));
    }
    std::vector<unsigned char> flipped = src;
    const std::size_t head = std::min<std::size_t>(src.size(), 700);
    for (std::size_t i = 0; i < head; ++i) {
      for (const unsigned char v : {0x00, 0x01, 0x7F, 0xD9, 0xDA, 0xFF}) {
        flipped[i] = v;
        check(flipped, std::string(ext) + " byte " + std::to_string(i));
      }
      flipped[i] = src[i];
    }
    EXPECT_GT(decoded, 1000U) << ext;  // most damage still leaves metadata to keep
  }
}

// An ICC profile OpenImageIO 2.4 reads past: its one tag, a "text" of 4
// bytes, which the library takes for 4 - 8 bytes of text, wrapped to 4 GiB.
std::string unsound_icc_profile() {
  std::string p(148, '\0');
  const auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[at + i] = static_cast<char>(v >> (24 - 8 * i));
  };
  put32(0, 148);                      // its size
  p.replace(12, 12, "mntrRGB XYZ ");  // class, colour space, connection space
  p.replace(36, 4, "acsp");
  put32(128, 1);              // one tag:
  p.replace(132, 4, "cprt");  // copyright,
  put32(136, 144);            // at 144,
  put32(140, 4);              // 4 bytes long,
  p.replace(144, 4, "text");  // of type text
  return p;
}

// A TIFF or PNG whose ICC profile the image library would read outside of
// (a crafted TIFF crashed it: fuzz_image) decodes to its pixels, the profile
// hidden from the library, and an adjustment of it is written, without the
// source's metadata.
TEST_F(ImageFiles, AnIccProfileTheLibraryWouldReadPastIsHidden) {
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 24, 16, test::Content::Random, 8);
  const std::string profile = unsound_icc_profile();
  const fs::path tiff = dir_ / "icc.tif";
  {
    OIIO::ImageSpec spec(24, 16, 3, OIIO::TypeDesc::UINT8);
    spec.attribute("ICCProfile",
                   OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(profile.size())),
                   profile.data());
    auto out = OIIO::ImageOutput::create(tiff.string());
    ASSERT_TRUE(out && out->open(tiff.string(), spec) &&
                out->write_image(OIIO::TypeDesc::UINT8, image.view.data, 3,
                                 static_cast<OIIO::stride_t>(image.view.stride)) &&
                out->close());
  }
  ASSERT_NE(test::file_text(tiff).find(profile), std::string::npos);  // written as it is
  save_image(dir_ / "plain.png", image.view);
  const std::string plain = test::file_text(dir_ / "plain.png");
  const std::size_t after_header = 8 + 25;  // the signature and IHDR
  // libpng takes the length the profile declares: from a stream that holds
  // more, or one that ends without its checksum, too.
  const std::string stored = test::zlib_stored(profile);
  std::vector<fs::path> files = {tiff};
  for (const auto& [name, stream] :
       {std::pair{"icc.png", stored},
        std::pair{"icc-more.png", test::zlib_stored(profile + "more")},
        std::pair{"icc-unended.png", stored.substr(0, stored.size() - 4)}}) {
    std::string png = plain;
    png.insert(after_header, test::png_chunk("iCCP", std::string("bad\0\0", 5) + stream));
    files.push_back(dir_ / name);
    std::ofstream(files.back(), std::ios::binary)
        .write(png.data(), static_cast<std::streamsize>(png.size()));
  }
  const std::vector<std::byte> pixels = test::pixel_bytes_of(image.view);
  for (const fs::path& file : files) {
    const Image read = load_image(file);
    EXPECT_EQ(test::pixel_bytes_of(read.view()), pixels) << file;
    for (const char* ext : {".tif", ".png"}) {
      const fs::path out = dir_ / (std::string("eq") + ext);
      const auto r =
          test::run_cli({"equalize", file.string(), "-o", out.string(), "--device", "cpu"});
      EXPECT_EQ(r.status, 0) << file << ": " << r.err;
      // Not passed on: a PNG from a PNG keeps its source's chunks but this one.
      EXPECT_EQ(test::file_text(out).find(profile.substr(128)), std::string::npos) << file << ext;
      EXPECT_EQ(test::file_text(out).find("iCCP"), std::string::npos) << file << ext;
      fs::remove(out);
    }
  }
}

}  // namespace
}  // namespace gpuhist
