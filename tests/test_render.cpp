// Drawing: the GPU renderer gives the CPU renderer's pixels exactly, and the
// pictures of histograms with known shapes have the bars the scale formulas say.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/render.hpp"
#include "render/cover.hpp"
#include "render/draw_rule.hpp"
#include "support/shared_context.hpp"

namespace gpuhist {
namespace {

constexpr std::uint32_t kBackground = 0x333333;

std::uint32_t pixel(const Picture& p, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* px = &p.rgba[(std::size_t{y} * p.width + x) * 4];
  return (std::uint32_t{px[0]} << 16) | (std::uint32_t{px[1]} << 8) | px[2];
}

// Rows from the bottom that are not background in column x.
std::uint32_t bar_height(const Picture& p, std::uint32_t x) {
  std::uint32_t h = 0;
  while (h < p.height && pixel(p, x, p.height - 1 - h) != kBackground) ++h;
  return h;
}

Histogram random_histogram(std::uint32_t bins, bool colour, std::uint32_t seed, bool spiky) {
  Histogram h(bins, colour);
  std::mt19937_64 rng(seed);
  for (Channel c : h.channels()) {
    for (auto& count : h.counts(c)) {
      count = spiky && rng() % 7 != 0 ? 0 : rng() % 100000;
    }
  }
  if (spiky) h.counts(Channel::Luminance)[bins / 2] = 5'000'000'000ULL;  // beyond 32 bits
  return h;
}

struct RenderCase {
  std::uint32_t bins, width, height;
  ScaleMode scale;
  std::uint32_t channels;
  bool colour, spiky;
};

class Renderers : public ::testing::TestWithParam<RenderCase> {};

TEST_P(Renderers, GpuEqualsCpu) {
  const RenderCase& c = GetParam();
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr) << "no Vulkan device: the GPU renderer must be tested";
  const Histogram h = random_histogram(c.bins, c.colour, c.bins + c.width, c.spiky);
  DrawOptions options;
  options.width = c.width;
  options.height = c.height;
  options.scale = c.scale;
  options.channels = c.channels;
  const Picture cpu = draw_cpu(h, options);
  const Picture gpu = context.draw(h, options);
  ASSERT_EQ(gpu.width, cpu.width);
  ASSERT_EQ(gpu.height, cpu.height);
  for (std::uint32_t y = 0; y < cpu.height; ++y) {
    for (std::uint32_t x = 0; x < cpu.width; ++x) {
      ASSERT_EQ(pixel(gpu, x, y), pixel(cpu, x, y)) << "at " << x << "," << y;
    }
  }
  EXPECT_EQ(gpu, cpu);
}

INSTANTIATE_TEST_SUITE_P(
    All, Renderers,
    ::testing::Values(RenderCase{256, 256, 100, ScaleMode::Clip, 7, true, false},
                      RenderCase{256, 256, 100, ScaleMode::Max, 15, true, true},
                      RenderCase{256, 256, 100, ScaleMode::Log, 8, true, false},
                      RenderCase{1000, 333, 77, ScaleMode::Clip, 15, true, true},
                      RenderCase{16, 1000, 50, ScaleMode::Log, 7, true, true},
                      RenderCase{65536, 512, 128, ScaleMode::Max, 8, false, false},
                      RenderCase{3, 7, 1, ScaleMode::Clip, 15, true, false},
                      RenderCase{256, 1, 300, ScaleMode::Clip, 15, false, true},
                      RenderCase{256, 256, 100, ScaleMode::Clip, 7, false, false}));

// One colour (R=200, G=100, B=50, 1000 pixels): one bar per channel, each the
// full height under every scale, and nothing else.
TEST(Pictures, OneColour) {
  Histogram h(256, true);
  h.counts(Channel::Red)[200] = 1000;
  h.counts(Channel::Green)[100] = 1000;
  h.counts(Channel::Blue)[50] = 1000;
  h.counts(Channel::Luminance)[110] = 1000;
  for (ScaleMode scale : {ScaleMode::Clip, ScaleMode::Max, ScaleMode::Log}) {
    DrawOptions options;
    options.scale = scale;
    const Picture p = draw_cpu(h, options);
    for (std::uint32_t x = 0; x < 256; ++x) {
      const bool bar = x == 200 || x == 100 || x == 50;
      EXPECT_EQ(bar_height(p, x), bar ? 100U : 0U) << "column " << x;
    }
    EXPECT_EQ(pixel(p, 200, 0), 0xFF0000U);
    EXPECT_EQ(pixel(p, 100, 50), 0x00FF00U);
    EXPECT_EQ(pixel(p, 50, 99), 0x0000FFU);
    // Luminance is not drawn with --channels rgb; drawn alone it is white.
    options.channels = kDrawLuminance;
    const Picture l = draw_cpu(h, options);
    EXPECT_EQ(bar_height(l, 110), 100U);
    EXPECT_EQ(pixel(l, 110, 0), 0xFFFFFFU);
    EXPECT_EQ(bar_height(l, 200), 0U);
  }
}

// A grey histogram's luminance is drawn whichever channels are asked for (a
// grey image's red, green and blue are its luminance): the default R, G and
// B do not give an empty picture.
TEST(Pictures, GreyShowsItsLuminance) {
  Histogram h(256, false);
  h.counts(Channel::Luminance)[40] = 10;
  DrawOptions options;
  const Picture rgb = draw_cpu(h, options);
  options.channels = kDrawLuminance;
  const Picture l = draw_cpu(h, options);
  EXPECT_EQ(rgb, l);
  EXPECT_EQ(bar_height(rgb, 40), 100U);
  EXPECT_EQ(pixel(rgb, 40, 0), 0xFFFFFFU);
  options.channels = kDrawRed;
  EXPECT_EQ(draw_cpu(h, options), l);
}

// Two colours, 3 and 1 pixels in red bins 10 and 20 (green and blue at 0).
// max: heights 100 and 33.3 -> rows whose centre (r + 0.5) / 100 < 1/3: 33.
// clip: scale max(1/3, 0.2 * 256 / 4 = 12.8): every bar is full height.
TEST(Pictures, TwoColoursAndScales) {
  Histogram h(256, true);
  h.counts(Channel::Red)[10] = 3;
  h.counts(Channel::Red)[20] = 1;
  h.counts(Channel::Green)[0] = 4;
  h.counts(Channel::Blue)[0] = 4;
  h.counts(Channel::Luminance)[5] = 4;
  DrawOptions options;
  options.channels = kDrawRed;
  options.scale = ScaleMode::Max;
  Picture p = draw_cpu(h, options);
  EXPECT_EQ(bar_height(p, 10), 100U);
  EXPECT_EQ(bar_height(p, 20), 33U);
  options.scale = ScaleMode::Clip;
  p = draw_cpu(h, options);
  EXPECT_EQ(bar_height(p, 10), 100U);
  EXPECT_EQ(bar_height(p, 20), 100U);
  // log: log2(2) / log2(4) = 1/2 of 100 rows.
  options.scale = ScaleMode::Log;
  p = draw_cpu(h, options);
  EXPECT_EQ(bar_height(p, 20), 50U);
  // Overlapping bars mix additively: green + blue at bin 0 is cyan.
  options.channels = kDrawRed | kDrawGreen | kDrawBlue;
  p = draw_cpu(h, options);
  EXPECT_EQ(pixel(p, 0, 99), 0x00FFFFU);
  EXPECT_EQ(pixel(p, 10, 99), 0xFF0000U);
}

// A full ramp, one pixel of every 8-bit value: with the clip scale
// max(1/1, 0.2 * 256 / 256) = 1 every bar is full; narrower pictures sample the bins.
TEST(Pictures, RampAndResampling) {
  Histogram h(256, true);
  for (Channel c : h.channels()) {
    for (auto& count : h.counts(c)) count = 1;
  }
  DrawOptions options;
  Picture p = draw_cpu(h, options);
  for (std::uint32_t x = 0; x < 256; ++x) EXPECT_EQ(bar_height(p, x), 100U);
  EXPECT_EQ(pixel(p, 3, 3), 0xFFFFFFU);  // red + green + blue
  // 512 columns show bin (2x + 1) * 256 / 1024 each: two columns a bin.
  EXPECT_EQ(render::column_bin(0, 512, 256), 0U);
  EXPECT_EQ(render::column_bin(511, 512, 256), 255U);
  // 64 columns show four bins each, the largest of their counts: bins 0-3, 4-7, ...
  EXPECT_EQ(render::column_bins(0, 64, 256).first, 0U);
  EXPECT_EQ(render::column_bins(0, 64, 256).end, 4U);
  EXPECT_EQ(render::column_bins(63, 64, 256).end, 256U);
  for (std::uint32_t b = 0; b < 4; ++b) h.counts(Channel::Red)[b] = 0;
  h.counts(Channel::Red)[5] = 0;
  options.width = 64;
  options.channels = kDrawRed;
  p = draw_cpu(h, options);
  EXPECT_EQ(bar_height(p, 0), 0U);    // bins 0-3 empty
  EXPECT_EQ(bar_height(p, 1), 100U);  // bin 5 empty, 4, 6 and 7 not
}

// With more bins than columns no bin goes undrawn: a spike of clipped shadows
// at bin 0 and of highlights at the last bin shows at any width, on the CPU
// and the GPU alike, where one bin a column would have skipped both.
TEST(Pictures, ClippedEndsShowAtAnyWidth) {
  Histogram h(1024, false);
  for (std::uint32_t b = 300; b < 700; ++b) h.counts(Channel::Luminance)[b] = 10;
  h.counts(Channel::Luminance)[0] = 4000;
  h.counts(Channel::Luminance)[1023] = 2000;
  const Context& context = test::gpu_context();
  for (const std::uint32_t width : {100U, 128U, 256U, 1000U}) {
    DrawOptions options;
    options.width = width;
    options.scale = ScaleMode::Max;
    const Picture cpu = draw_cpu(h, options);
    EXPECT_EQ(bar_height(cpu, 0), 100U) << width;
    EXPECT_EQ(bar_height(cpu, width - 1), 50U) << width;
    EXPECT_EQ(bar_height(cpu, width / 2), 0U) << width;  // 10 of 4000: under half a row
    if (context.device() != nullptr) EXPECT_EQ(context.draw(h, options), cpu) << width;
  }
}

TEST(Pictures, BadOptionsAreRejected) {
  const Histogram h(256, true);
  DrawOptions options;
  options.width = 0;
  EXPECT_THROW((void)draw_cpu(h, options), Error);
  options.width = 16385;
  EXPECT_THROW((void)draw_cpu(h, options), Error);
  options = DrawOptions{};
  options.channels = 0;
  EXPECT_THROW((void)draw_cpu(h, options), Error);
  options = DrawOptions{};
  options.scale = static_cast<ScaleMode>(9);
  EXPECT_THROW((void)draw_cpu(h, options), Error);
  EXPECT_THROW((void)draw_cpu(Histogram{}, DrawOptions{}), Error);
  EXPECT_EQ(parse_draw_channels("rgbl"), 15U);
  EXPECT_EQ(parse_draw_channels("l"), 8U);
  EXPECT_FALSE(parse_draw_channels("rr"));
  EXPECT_FALSE(parse_draw_channels("x"));
  EXPECT_FALSE(parse_draw_channels(""));
  EXPECT_EQ(parse_scale_mode("log"), ScaleMode::Log);
  EXPECT_FALSE(parse_scale_mode("linear"));
}

TEST(Pictures, FixedLog2) {
  EXPECT_EQ(render::fixed_log2(0), 0U);                    // log2(1)
  EXPECT_EQ(render::fixed_log2(1), 1U << 16);              // log2(2)
  EXPECT_EQ(render::fixed_log2(2), (1U << 16) | 0x8000U);  // 3: 1 + 1/2
  EXPECT_EQ(render::fixed_log2(0xFFFFFFFFU), (31U << 16) | 0xFFFFU);
}

}  // namespace
}  // namespace gpuhist

namespace gpuhist {
namespace {

// The tutorial's layout on a 200x100 frame: panels 90 wide (90% of half the
// width), 25 high (a quarter), centred in their halves at the bottom.
TEST(Overlay, LayoutAndComposition) {
  const OverlayLayout layout = overlay_layout(200, 100);
  EXPECT_EQ(layout.panel_width, 90U);
  EXPECT_EQ(layout.panel_height, 25U);
  EXPECT_EQ(layout.left_x, 5U);
  EXPECT_EQ(layout.right_x, 105U);
  EXPECT_EQ(layout.y, 75U);

  // A 400x100 frame, left half (50, 60, 70), right half (200, 210, 220): covering
  // 200x100 crops the centre 200 columns, 100 from each half.
  std::vector<std::uint8_t> rgb(400 * 100 * 3);
  for (std::uint32_t y = 0; y < 100; ++y) {
    for (std::uint32_t x = 0; x < 400; ++x) {
      const std::uint8_t base = x < 200 ? 50 : 200;
      for (std::uint32_t c = 0; c < 3; ++c)
        rgb[(y * 400 + x) * 3 + c] = static_cast<std::uint8_t>(base + 10 * c);
    }
  }
  const ImageView frame =
      ImageView::packed(rgb.data(), 400, 100, {ChannelLayout::RGB, SampleType::U8});
  Histogram h(256, true);
  // One full bar in the first column of the RGB panel (which shows bin 1 of
  // 256 in 90 columns) and in the last column of the luminance panel (bin 254).
  h.counts(Channel::Red)[render::column_bin(0, 90, 256)] = 10;
  h.counts(Channel::Luminance)[render::column_bin(89, 90, 256)] = 10;
  DrawOptions panel;
  panel.width = layout.panel_width;
  panel.height = layout.panel_height;
  panel.channels = kDrawRed | kDrawGreen | kDrawBlue;
  const Picture rgb_panel = draw_cpu(h, panel);
  panel.channels = kDrawLuminance;
  const Picture l_panel = draw_cpu(h, panel);
  const Picture out = compose_overlay(frame, 200, 100, rgb_panel, l_panel, panel.background);
  EXPECT_EQ(pixel(out, 10, 10), 0x323C46U);   // left half of the crop, untouched
  EXPECT_EQ(pixel(out, 150, 10), 0xC8D2DCU);  // right half
  EXPECT_EQ(pixel(out, 5, 99), 0xFF0000U);    // the red bar, opaque
  EXPECT_EQ(pixel(out, 194, 80), 0xFFFFFFU);  // the luminance bar at the right end
  // Panel background: half video, half #333333.
  EXPECT_EQ(pixel(out, 50, 90),
            ((50 + 0x33) / 2U << 16) | ((60 + 0x33) / 2U << 8) | ((70 + 0x33) / 2U));
}

// A 16-bit frame (a 10-bit video's, a 16-bit PNG's) is shown at the nearest
// 8-bit value of each sample, round(v * 255 / 65535), not its high byte, on
// the CPU and on the GPU.
TEST(Overlay, SixteenBitFramesAreRoundedToTheNearestEightBitValue) {
  constexpr std::uint32_t w = 64, h = 64;
  std::vector<std::uint16_t> samples(std::size_t{w} * h * 3);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    // Every remainder modulo 257 around the halfway points, over the whole range.
    samples[i] = static_cast<std::uint16_t>((i * 1031 + (i % 7) * 64) % 65536);
  }
  const ImageView frame =
      ImageView::packed(samples.data(), w, h, {ChannelLayout::RGB, SampleType::U16});
  Histogram histogram(256, true);
  const Picture cpu = draw_overlay_cpu(frame, histogram, w, h);
  const OverlayLayout layout = overlay_layout(w, h);
  std::size_t checked = 0;
  for (std::uint32_t y = 0; y < layout.y; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      for (std::uint32_t c = 0; c < 3; ++c) {
        const double v = samples[(std::size_t{y} * w + x) * 3 + c];
        ASSERT_EQ(cpu.rgba[(std::size_t{y} * w + x) * 4 + c], std::lround(v * 255.0 / 65535.0))
            << x << "," << y << " " << c << ": " << v;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 3000U);
  const Context& context = test::gpu_context();
  if (context.device() == nullptr) GTEST_SKIP() << "no Vulkan device: the CPU's alone checked";
  const Picture gpu = context.draw_overlay(frame, histogram, w, h);
  EXPECT_EQ(gpu.rgba, cpu.rgba);
}

// Covering shows the exact part of the frame the scale factor leaves, not one
// rounded to whole source pixels (which stretched small frames): a 3x2 frame
// over 250x100 (scaled by 250/3) shows each row as 50 target rows; a 10x3
// frame (scaled by 100/3) shows 7.5 columns, from 1.25 to 8.75: column 1 and
// column 8 a quarter of a column short, 25 target columns each.
TEST(Overlay, CoverShowsTheExactPartOfTheFrame) {
  const render::Cover tall(3, 2, 250, 100);
  for (std::uint32_t y = 0; y < 100; ++y) EXPECT_EQ(tall.source_y(y), y < 50 ? 0U : 1U) << y;
  for (std::uint32_t x = 0; x < 250; ++x) EXPECT_EQ(tall.source_x(x), (2 * x + 1) * 3 / 500) << x;
  const render::Cover wide(10, 3, 250, 100);
  std::vector<std::uint32_t> shown(10);
  for (std::uint32_t x = 0; x < 250; ++x) ++shown[wide.source_x(x)];
  EXPECT_EQ(shown, (std::vector<std::uint32_t>{0, 25, 33, 34, 33, 33, 34, 33, 25, 0}));
  for (std::uint32_t y = 0; y < 100; ++y) EXPECT_EQ(wide.source_y(y), (2 * y + 1) * 3 / 200) << y;
  // Equal shapes map one to one; a frame 8000x16 over 320x240 (scaled by 15)
  // shows its centre column 4000 from the target's centre on.
  const render::Cover same(640, 480, 640, 480);
  for (std::uint32_t x = 0; x < 640; ++x) EXPECT_EQ(same.source_x(x), x);
  const render::Cover strip(8000, 16, 320, 240);
  EXPECT_EQ(strip.source_x(159), 3999U);
  EXPECT_EQ(strip.source_x(160), 4000U);
  // Pixels twice as wide as high: a 4x2 frame is shown 8x2, so over 8x2 it
  // shows every pixel twice across and nothing is cropped; PAL DV's 720x576
  // of 16:15 pixels (shown 768x576) over 768x576 maps each target column to
  // the source column 15/16 of its way, and each row to itself.
  const render::Cover doubled(4, 2, 8, 2, 2, 1);
  for (std::uint32_t x = 0; x < 8; ++x) EXPECT_EQ(doubled.source_x(x), x / 2) << x;
  for (std::uint32_t y = 0; y < 2; ++y) EXPECT_EQ(doubled.source_y(y), y);
  const render::Cover pal(720, 576, 768, 576, 16, 15);
  for (std::uint32_t x = 0; x < 768; ++x) EXPECT_EQ(pal.source_x(x), (2 * x + 1) * 15 / 32) << x;
  for (std::uint32_t y = 0; y < 576; ++y) EXPECT_EQ(pal.source_y(y), y) << y;
  // No aspect declared (0:1): square pixels.
  const render::Cover undeclared(3, 2, 250, 100, 0, 1);
  for (std::uint32_t x = 0; x < 250; ++x) EXPECT_EQ(undeclared.source_x(x), tall.source_x(x));
}

}  // namespace
}  // namespace gpuhist

namespace gpuhist {
namespace {

struct OverlayCase {
  std::uint32_t frame_width, frame_height;  // the frame
  std::uint32_t width, height;              // the overlay
  bool deep;                                // 16-bit samples
  std::uint32_t padding;                    // bytes after each frame row
  ScaleMode scale;
  std::uint32_t left_channels;
};

std::string overlay_case_name(const testing::TestParamInfo<OverlayCase>& info) {
  const OverlayCase& c = info.param;
  return std::to_string(c.frame_width) + "x" + std::to_string(c.frame_height) + "_to_" +
         std::to_string(c.width) + "x" + std::to_string(c.height) + (c.deep ? "_16bit" : "_8bit") +
         "_pad" + std::to_string(c.padding) + "_" + std::string(to_string(c.scale)) + "_ch" +
         std::to_string(c.left_channels);
}

class GpuOverlay : public testing::TestWithParam<OverlayCase> {};

// The GPU overlay (frame cover-scaled by the fragment shader, panels drawn in
// the same pass) gives the bytes of draw_overlay_cpu.
TEST_P(GpuOverlay, EqualsCpuOverlay) {
  const OverlayCase& c = GetParam();
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  const std::size_t sample = c.deep ? 2 : 1;
  const std::size_t stride = c.frame_width * 3 * sample + c.padding;
  std::vector<std::uint8_t> bytes(stride * c.frame_height);
  std::mt19937 rng(c.frame_width * 7 + c.height);
  // Smooth gradients plus noise: many distinct bins, flat areas too.
  for (std::uint32_t y = 0; y < c.frame_height; ++y) {
    for (std::size_t i = 0; i < stride; ++i) {
      bytes[y * stride + i] = static_cast<std::uint8_t>((i / 3 + y * 2) % 256 ^ (rng() % 4));
    }
  }
  const ImageView frame{bytes.data(), c.frame_width,
                        c.frame_height, stride,
                        {ChannelLayout::RGB, c.deep ? SampleType::U16 : SampleType::U8}};
  const Histogram h = context.compute(frame);
  OverlayStyle style;
  style.scale = c.scale;
  style.left_channels = c.left_channels;
  style.background = 0x204060;
  const Picture gpu = context.draw_overlay(frame, h, c.width, c.height, style);
  const Picture cpu = draw_overlay_cpu(frame, h, c.width, c.height, style);
  ASSERT_EQ(gpu.width, c.width);
  ASSERT_EQ(gpu.height, c.height);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < cpu.rgba.size(); ++i) differing += gpu.rgba[i] != cpu.rgba[i];
  EXPECT_EQ(differing, 0U);
}

constexpr std::uint32_t kRgb = kDrawRed | kDrawGreen | kDrawBlue;

INSTANTIATE_TEST_SUITE_P(
    Frames, GpuOverlay,
    testing::Values(OverlayCase{64, 48, 64, 48, false, 0, ScaleMode::Clip, kRgb},
                    OverlayCase{160, 90, 96, 96, false, 3, ScaleMode::Max, kRgb},
                    OverlayCase{90, 160, 200, 60, true, 2, ScaleMode::Log, kRgb},
                    OverlayCase{33, 17, 2, 2, false, 1, ScaleMode::Clip, kDrawGreen},
                    OverlayCase{41, 29, 301, 157, true, 0, ScaleMode::Clip, kRgb | kDrawLuminance}),
    overlay_case_name);

// A grey picture's histogram has only luminance: both panels draw it, on the
// GPU as on the CPU, whatever channels the style asks for.
TEST(GpuOverlay, GreyHistogramDrawsLuminanceInBothPanels) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  constexpr std::uint32_t w = 48, h = 32;
  std::vector<std::uint8_t> grey(std::size_t{w} * h), rgb(std::size_t{w} * h * 3);
  for (std::size_t i = 0; i < grey.size(); ++i) {
    grey[i] = static_cast<std::uint8_t>(i * 7 % 251);
    for (std::size_t c = 0; c < 3; ++c) rgb[i * 3 + c] = grey[i];
  }
  const Histogram histogram =
      context.compute(ImageView::packed(grey.data(), w, h, {ChannelLayout::Grey, SampleType::U8}));
  ASSERT_FALSE(histogram.colour());
  const ImageView frame = ImageView::packed(rgb.data(), w, h, {ChannelLayout::RGB, SampleType::U8});
  OverlayStyle style;  // red, green and blue on the left
  const Picture gpu = context.draw_overlay(frame, histogram, 160, 120, style);
  const Picture cpu = draw_overlay_cpu(frame, histogram, 160, 120, style);
  ASSERT_EQ(gpu.rgba.size(), cpu.rgba.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < cpu.rgba.size(); ++i) differing += gpu.rgba[i] != cpu.rgba[i];
  EXPECT_EQ(differing, 0U);
  // The left panel is not empty: it has white bars (luminance), as the right one.
  const OverlayLayout layout = overlay_layout(160, 120);
  std::size_t white = 0;
  for (std::uint32_t y = layout.y; y < layout.y + layout.panel_height; ++y) {
    for (std::uint32_t x = layout.left_x; x < layout.left_x + layout.panel_width; ++x) {
      const std::uint8_t* p = &gpu.rgba[(std::size_t{y} * 160 + x) * 4];
      white += p[0] == 255 && p[1] == 255 && p[2] == 255;
    }
  }
  EXPECT_GT(white, 0U);
}

TEST(GpuOverlay, RejectsBadFramesAndSizes) {
  const Context& context = test::gpu_context();
  std::vector<std::uint8_t> rgba(16 * 16 * 4);
  const ImageView not_rgb =
      ImageView::packed(rgba.data(), 16, 16, {ChannelLayout::RGBA, SampleType::U8});
  const Histogram h(256, true);
  EXPECT_THROW((void)context.draw_overlay(not_rgb, h, 16, 16), Error);
  const ImageView rgb =
      ImageView::packed(rgba.data(), 16, 16, {ChannelLayout::RGB, SampleType::U8});
  EXPECT_THROW((void)context.draw_overlay(rgb, h, 1, 16), Error);
  EXPECT_THROW((void)context.draw_overlay(rgb, h, 16, 16385), Error);
  EXPECT_THROW((void)draw_overlay_cpu(rgb, h, 16385, 16), Error);
}

}  // namespace
}  // namespace gpuhist
