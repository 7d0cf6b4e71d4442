// Adjustment tables against values worked out by hand, and the GPU applier
// against the CPU one, byte for byte, on every integer pixel format.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "adjust/gpu_apply.hpp"
#include "core/binning.hpp"
#include "gpuhist/adjust.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "support/shared_context.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"

namespace gpuhist {
namespace {

using Counts = std::vector<std::uint64_t>;
using Table = std::vector<std::uint16_t>;

TEST(AdjustTables, Equalize) {
  // M = 4; lowest value 1 (2 pixels), then 1 pixel at 3 and 1 at 4: spread 4 - 2 = 2.
  EXPECT_EQ(equalize_table(Counts{0, 2, 0, 1, 1}), (Table{0, 0, 0, 2, 4}));
  // Halves round up: 1 of 2 pixels above the lowest gives 255 / 2 = 127.5 -> 128.
  Counts halves(256, 0);
  halves[10] = 5;
  halves[20] = 1;
  halves[30] = 1;
  const Table t = equalize_table(halves);
  EXPECT_EQ(t[9], 0);
  EXPECT_EQ(t[10], 0);
  EXPECT_EQ(t[20], 128);
  EXPECT_EQ(t[29], 128);
  EXPECT_EQ(t[30], 255);
  // One value is kept: the identity, which keeps a one-colour image's colour
  // when its luminance's table is applied to red, green and blue.
  EXPECT_EQ(equalize_table(Counts{0, 0, 5, 0}), (Table{0, 1, 2, 3}));
}

TEST(AdjustTables, Stretch) {
  const Counts flat(100, 1);  // one pixel at each of 0..99, M = 99
  const Table t = stretch_table(flat, 10.0, 10.0);
  // lo = percentile(10) = 9, hi = percentile(90) = 89.
  EXPECT_EQ(t[0], 0);
  EXPECT_EQ(t[9], 0);
  EXPECT_EQ(t[10], 1);   // round(99 / 80) = 1
  EXPECT_EQ(t[49], 50);  // 99 * 40 / 80 = 49.5 -> 50
  EXPECT_EQ(t[88], 98);  // round(99 * 79 / 80) = round(97.76)
  EXPECT_EQ(t[89], 99);
  EXPECT_EQ(t[99], 99);
  // No clipping on a full range changes nothing; one value cannot be stretched.
  Counts ends(256, 0);
  ends[0] = 3;
  ends[255] = 4;
  ends[100] = 1;
  const Table full = stretch_table(ends, 0.0, 0.0);
  for (std::uint32_t v = 0; v < 256; ++v) EXPECT_EQ(full[v], v);
  const Table one = stretch_table(Counts{0, 7, 0}, 1.0, 1.0);
  EXPECT_EQ(one, (Table{0, 1, 2}));
  EXPECT_THROW((void)stretch_table(flat, 60.0, 0.0), Error);
}

TEST(AdjustTables, Match) {
  // Half the pixels at 0 and half at 1, matched to half at 2 and half at 3.
  EXPECT_EQ(match_table(Counts{2, 2, 0, 0}, Counts{0, 0, 2, 2}), (Table{2, 3, 3, 3}));
  // Shares, not counts, are matched: a reference twice as large gives the same.
  EXPECT_EQ(match_table(Counts{2, 2, 0, 0}, Counts{0, 0, 4, 4}), (Table{2, 3, 3, 3}));
  // Against itself every value present stays.
  const Counts c = {3, 0, 1, 4, 0, 2};
  const Table self = match_table(c, c);
  for (std::size_t v : {0U, 2U, 3U, 5U}) EXPECT_EQ(self[v], v);
  // A quarter at 0 and three quarters at 3, to a flat reference over 0..3.
  EXPECT_EQ(match_table(Counts{1, 0, 0, 3}, Counts{1, 1, 1, 1}), (Table{0, 0, 0, 3}));
  EXPECT_THROW((void)match_table(Counts{1, 2}, Counts{1, 2, 3}), Error);
}

TEST(AdjustTables, Thresholds) {
  // Two equal peaks at 2 and 7: Otsu splits them (first maximum, 2).
  const Counts two_peaks = {0, 0, 10, 0, 0, 0, 0, 10, 0, 0};
  EXPECT_EQ(otsu_threshold(two_peaks), 2);
  EXPECT_EQ(threshold_table(5, 2), (Table{0, 0, 0, 4, 4}));
  EXPECT_EQ(threshold_table(3, -1), (Table{2, 2, 2}));
  EXPECT_EQ(threshold_table(3, 2), (Table{0, 0, 0}));
  EXPECT_EQ(threshold_table(3, -5), (Table{2, 2, 2}));
  EXPECT_EQ(threshold_table(3, 3), (Table{0, 0, 0}));  // the triangle method can answer size
  // Triangle: a peak at 1 with its long tail to the right, so OpenCV flips the
  // histogram (peak at 8, tail from 0). The line from (0, 0) to the peak
  // (8, 100) is farthest above bin 6 (100 i - 8 h(i): 92, 192, 268, 336, 404,
  // 440, 380, 0); one less is 5, flipped back 9 - 5 = 4.
  const Counts tail = {0, 100, 40, 20, 12, 8, 4, 1, 1, 1};
  EXPECT_EQ(triangle_threshold(tail), 4);
  EXPECT_THROW((void)otsu_threshold(Counts{0, 0}), Error);
  EXPECT_THROW((void)equalize_table(Counts{}), Error);
}

// A random table per channel for the formats' value range.
Lut random_lut(PixelFormat format, LutTarget target, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Lut lut;
  lut.sample = format.sample;
  lut.target = target;
  const std::uint32_t size = format.sample == SampleType::U8 ? 256U : 65536U;
  for (auto& table : lut.tables) {
    table.resize(size);
    for (auto& v : table) v = static_cast<std::uint16_t>(rng() % size);
  }
  return lut;
}

TEST(ApplyLut, CpuByHand) {
  // Two RGBA8 pixels through inverting tables: alpha stays.
  const std::uint8_t pixels[8] = {0, 10, 200, 77, 255, 128, 1, 5};
  Lut lut;
  lut.sample = SampleType::U8;
  for (auto& table : lut.tables) {
    table.resize(256);
    for (std::uint32_t v = 0; v < 256; ++v) table[v] = static_cast<std::uint16_t>(255 - v);
  }
  std::vector<std::byte> out(8);
  apply_lut_cpu(ImageView::packed(pixels, 2, 1, {ChannelLayout::RGBA, SampleType::U8}), lut, out);
  const std::uint8_t expected[8] = {255, 245, 55, 77, 0, 127, 254, 5};
  EXPECT_EQ(std::memcmp(out.data(), expected, 8), 0);
  // Luminance to grey: the luminance value of (255, 128, 1) with one bin per value.
  lut.target = LutTarget::Luminance;
  std::vector<std::byte> grey(2);
  apply_lut_cpu(ImageView::packed(pixels, 2, 1, {ChannelLayout::RGBA, SampleType::U8}), lut, grey);
  const std::uint32_t l = binning::luma_bin(2126 * 255 + 7152 * 128 + 722 * 1, 255, 256);
  EXPECT_EQ(std::to_integer<std::uint32_t>(grey[1]), 255 - l);
  EXPECT_EQ(std::to_integer<std::uint32_t>(grey[0]),
            255 - binning::luma_bin(7152 * 10 + 722 * 200, 255, 256));
}

TEST(ApplyLut, RefusesWhatDoesNotFit) {
  const std::uint8_t pixels[3] = {1, 2, 3};
  const ImageView rgb = ImageView::packed(pixels, 1, 1, {ChannelLayout::RGB, SampleType::U8});
  Lut lut = random_lut({ChannelLayout::RGB, SampleType::U8}, LutTarget::Samples, 1);
  std::vector<std::byte> small(2);
  EXPECT_THROW(apply_lut_cpu(rgb, lut, small), Error);  // 3 bytes needed
  lut.sample = SampleType::U16;
  std::vector<std::byte> out(3);
  EXPECT_THROW(apply_lut_cpu(rgb, lut, out), Error);  // tables of the wrong size
  const float f[3] = {0.f, 0.5f, 1.f};
  EXPECT_THROW(
      apply_lut_cpu(ImageView::packed(f, 1, 1, {ChannelLayout::RGB, SampleType::F32}), lut, out),
      Error);
  EXPECT_THROW((void)tone_options({ChannelLayout::Grey, SampleType::F32}), Error);
}

TEST(ApplyLut, GpuEqualsCpuOnEveryIntegerFormat) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  std::uint32_t seed = 1;
  for (PixelFormat format : test::integer_formats()) {
    for (const auto& [w, h, pad] :
         {std::tuple{1U, 1U, 0U}, std::tuple{37U, 5U, 4U}, std::tuple{301U, 17U, 0U}}) {
      const test::TestImage image =
          test::make_image(format, w, h, test::Content::Random, seed, pad);
      for (LutTarget target : {LutTarget::Samples, LutTarget::Luminance}) {
        for (LumaWeights luma : {LumaWeights::Rec709, LumaWeights::Rec601}) {
          Lut lut = random_lut(format, target, ++seed);
          lut.luma = luma;
          const std::size_t bytes =
              std::size_t{w} * h * pixel_bytes(lut_output_format(format, lut));
          std::vector<std::byte> cpu(bytes), gpu(bytes);
          apply_lut_cpu(image.view, lut, cpu);
          context.apply_lut(image.view, lut, gpu);
          EXPECT_EQ(cpu, gpu) << to_string(format) << " " << w << "x" << h << " target "
                              << static_cast<int>(target) << " luma " << to_string(luma);
        }
      }
    }
  }
}

TEST(ApplyLut, GpuEqualsCpuOnAnImageCopiedInSeveralParts) {
  // 11 MB: the host copies it to and from the device in parts, on several threads.
  const PixelFormat format{ChannelLayout::RGBA, SampleType::U16};
  const test::TestImage image = test::make_image(format, 1200, 1200, test::Content::Random, 9);
  const Lut lut = random_lut(format, LutTarget::Samples, 10);
  std::vector<std::byte> cpu(image.view.pixel_count() * 8), gpu(cpu.size());
  apply_lut_cpu(image.view, lut, cpu);
  test::gpu_context().apply_lut(image.view, lut, gpu);
  EXPECT_EQ(cpu, gpu);
}

// Every kind, each threshold method, and both channel choices.
std::vector<Adjustment> every_adjustment(const Histogram& reference) {
  std::vector<Adjustment> all;
  for (AdjustKind kind : {AdjustKind::Equalize, AdjustKind::Clahe, AdjustKind::Autolevel,
                          AdjustKind::Threshold, AdjustKind::Match}) {
    for (ToneChannels channels : {ToneChannels::Each, ToneChannels::Luminance}) {
      for (ThresholdMethod method :
           {ThresholdMethod::Otsu, ThresholdMethod::Triangle, ThresholdMethod::Fixed}) {
        if (kind != AdjustKind::Threshold && method != ThresholdMethod::Otsu) continue;
        Adjustment a;
        a.kind = kind;
        a.channels = channels;
        a.method = method;
        a.threshold = 100;
        a.reference = &reference;
        a.tiles_x = 3;
        a.tiles_y = 2;
        all.push_back(a);
      }
    }
  }
  return all;
}

// A threshold level past the largest sample is refused by the library
// itself, on the CPU and the GPU (what the viewer meets), as the verbs refuse it.
// A value no AdjustKind has (a cast) is refused, not read past the table.
TEST(AdjustImage, AKindOutsideTheTableIsRefused) {
  for (const AdjustKind kind : {AdjustKind::Equalize, AdjustKind::Match}) {
    EXPECT_EQ(parse_adjust_kind(to_string(kind)), kind);
  }
  EXPECT_THROW((void)info(static_cast<AdjustKind>(kAdjustments.size())), Error);
  EXPECT_THROW((void)to_string(static_cast<AdjustKind>(200)), Error);
}

// Values no enumerator names (casts from numbers) are refused on the CPU and
// the GPU alike, by the one-call and the step-by-step functions.
TEST(AdjustImage, EnumerationsOutsideTheirValuesAreRefused) {
  const Context& context = test::gpu_context();
  const PixelFormat rgb8{ChannelLayout::RGB, SampleType::U8};
  const test::TestImage image = test::make_image(rgb8, 8, 6, test::Content::Random, 3);
  std::vector<std::byte> out(image.view.pixel_count() * 3);
  for (const AdjustKind kind : {AdjustKind::Equalize, AdjustKind::Clahe, AdjustKind::Threshold}) {
    for (const bool gpu : {false, true}) {
      Adjustment bad_luma{.kind = kind, .luma = static_cast<LumaWeights>(9)};
      EXPECT_THROW((void)adjust_image(context, image.view, bad_luma, out, {}, gpu), Error)
          << to_string(kind) << gpu;
      Adjustment bad_channels{.kind = kind, .channels = static_cast<ToneChannels>(9)};
      EXPECT_THROW((void)adjust_image(context, image.view, bad_channels, out, {}, gpu), Error)
          << to_string(kind) << gpu;
    }
  }
  const Histogram h = context.compute(image.view, tone_options(rgb8));
  EXPECT_THROW((void)equalize_lut(h, rgb8, static_cast<ToneChannels>(7)), Error);
  Lut lut = equalize_lut(h, rgb8, ToneChannels::Each);
  EXPECT_NO_THROW(apply_lut_cpu(image.view, lut, out));
  lut.target = static_cast<LutTarget>(5);
  EXPECT_THROW(apply_lut_cpu(image.view, lut, out), Error);
  lut.target = LutTarget::Luminance;
  lut.luma = static_cast<LumaWeights>(9);
  EXPECT_THROW(apply_lut_cpu(image.view, lut, out), Error);
  EXPECT_THROW(context.apply_lut(image.view, lut, out), Error);
}

TEST(AdjustImage, AThresholdPastTheLargestSampleIsRefused) {
  const Context& context = test::gpu_context();
  for (const PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::Grey, SampleType::U16}}) {
    const test::TestImage image = test::make_image(format, 8, 6, test::Content::Random, 3);
    const std::int32_t largest = format.sample == SampleType::U8 ? 255 : 65535;
    Adjustment a;
    a.kind = AdjustKind::Threshold;
    a.method = ThresholdMethod::Fixed;
    std::vector<std::byte> out(image.view.pixel_count() * pixel_bytes(adjusted_format(format, a)));
    for (const bool gpu : {false, true}) {
      a.threshold = largest + 1;
      try {
        (void)adjust_image(context, image.view, a, out, {}, gpu);
        ADD_FAILURE() << "a threshold of " << a.threshold << " was taken";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("is outside -1 to " + std::to_string(largest)),
                  std::string::npos)
            << e.what();
      }
      a.threshold = largest;  // every pixel at or below: all zero, taken
      EXPECT_NO_THROW((void)adjust_image(context, image.view, a, out, {}, gpu));
    }
  }
}

TEST(AdjustImage, GpuEqualsCpuForEveryKindAndIntegerFormat) {
  // On the GPU the image is counted, given its tables and adjusted on the
  // device (Otsu's and the triangle thresholds made on the host); on the CPU
  // counted by the cpu strategy: the same bytes, on noise, one colour and a
  // gradient.
  const Context& context = test::gpu_context();
  std::uint32_t seed = 20;
  for (PixelFormat format : test::integer_formats()) {
    const test::TestImage other = test::make_image(format, 20, 30, test::Content::Gradient, ++seed);
    const Histogram reference =
        context.compute(other.view, tone_options(format), RunOptions{Strategy::Cpu});
    for (test::Content content :
         {test::Content::Random, test::Content::Flat, test::Content::Gradient}) {
      const test::TestImage image = test::make_image(format, 53, 19, content, ++seed, 4);
      for (const Adjustment& a : every_adjustment(reference)) {
        const std::size_t bytes =
            image.view.pixel_count() * pixel_bytes(adjusted_format(image.view.format, a));
        std::vector<std::byte> cpu(bytes), gpu(bytes);
        const auto t_cpu =
            adjust_image(context, image.view, a, cpu, RunOptions{Strategy::Cpu}, false);
        const auto t_gpu =
            adjust_image(context, image.view, a, gpu, RunOptions{Strategy::Gpu}, true);
        EXPECT_EQ(cpu, gpu) << to_string(format) << " " << test::to_string(content) << " "
                            << to_string(a.kind) << " channels " << static_cast<int>(a.channels);
        EXPECT_EQ(t_cpu, t_gpu);
        EXPECT_EQ(t_gpu.has_value(), a.kind == AdjustKind::Threshold);
      }
    }
  }
}

TEST(AdjustImage, TablesOnTheDeviceRoundHalvesUp) {
  // The halves of the hand-worked tables above, made on the device.
  const Context& context = test::gpu_context();
  const PixelFormat grey{ChannelLayout::Grey, SampleType::U8};
  const auto adjusted = [&](const std::vector<std::uint8_t>& pixels, const Adjustment& a) {
    const ImageView view =
        ImageView::packed(pixels.data(), static_cast<std::uint32_t>(pixels.size()), 1, grey);
    std::vector<std::byte> cpu(pixels.size()), gpu(pixels.size());
    (void)adjust_image(context, view, a, cpu, RunOptions{Strategy::Cpu}, false);
    (void)adjust_image(context, view, a, gpu, RunOptions{Strategy::Gpu}, true);
    EXPECT_EQ(cpu, gpu);
    return gpu;
  };
  Adjustment equalize;
  equalize.kind = AdjustKind::Equalize;
  // 1 of 2 pixels above the lowest value: 255 / 2 = 127.5 -> 128.
  const std::vector<std::byte> e = adjusted({10, 10, 10, 10, 10, 20, 30}, equalize);
  EXPECT_EQ(std::to_integer<int>(e[0]), 0);
  EXPECT_EQ(std::to_integer<int>(e[5]), 128);
  EXPECT_EQ(std::to_integer<int>(e[6]), 255);
  // Values 0..99, 10% clipped each side: lo = 9, hi = 89; 49 -> 255 * 40 / 80 = 127.5 -> 128.
  std::vector<std::uint8_t> ramp(100);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<std::uint8_t>(i);
  Adjustment stretch;
  stretch.kind = AdjustKind::Autolevel;
  stretch.low = stretch.high = 10.0;
  const std::vector<std::byte> s = adjusted(ramp, stretch);
  EXPECT_EQ(std::to_integer<int>(s[9]), 0);
  EXPECT_EQ(std::to_integer<int>(s[10]), 3);  // round(255 / 80)
  EXPECT_EQ(std::to_integer<int>(s[49]), 128);
  EXPECT_EQ(std::to_integer<int>(s[89]), 255);
}

TEST(AdjustImage, MatchingAnImageToItselfKeepsIt) {
  // Each value present maps to itself, the highest ones included, on the
  // device as on the host.
  const Context& context = test::gpu_context();
  std::mt19937 random(5);
  for (PixelFormat format : {PixelFormat{ChannelLayout::Grey, SampleType::U8},
                             PixelFormat{ChannelLayout::RGB, SampleType::U16}}) {
    const std::uint32_t max = format.sample == SampleType::U8 ? 255U : 65535U;
    const std::uint32_t samples = 41 * 13 * channel_count(format.layout);
    std::vector<std::uint16_t> wide(samples);
    for (auto& s : wide) s = static_cast<std::uint16_t>(random() % 7 == 0 ? max : random() % max);
    std::vector<std::uint8_t> narrow(wide.begin(), wide.end());
    const void* data = format.sample == SampleType::U8 ? static_cast<const void*>(narrow.data())
                                                       : static_cast<const void*>(wide.data());
    const ImageView view = ImageView::packed(data, 41, 13, format);
    const Histogram self = context.compute(view, tone_options(format), RunOptions{Strategy::Cpu});
    Adjustment a;
    a.kind = AdjustKind::Match;
    a.channels = ToneChannels::Each;
    a.reference = &self;
    std::vector<std::byte> gpu(view.pixel_count() * pixel_bytes(format));
    (void)adjust_image(context, view, a, gpu, RunOptions{Strategy::Gpu}, true);
    EXPECT_EQ(std::memcmp(gpu.data(), data, gpu.size()), 0) << to_string(format);
  }
}

TEST(AdjustImage, TablesAreMadeOnTheDeviceWhereTheyCan) {
  // Every kind but Otsu's and the triangle thresholds (and a fixed threshold,
  // which counts nothing) in one submission; a reference of 2^32 pixels or
  // more, which 32-bit products cannot compare, on the host: the same bytes.
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr);
  adjust::GpuAdjuster adjuster(*device);
  const Context& context = test::gpu_context();
  const PixelFormat format{ChannelLayout::RGB, SampleType::U8};
  const test::TestImage image = test::make_image(format, 31, 17, test::Content::Random, 8);
  const test::TestImage other = test::make_image(format, 9, 9, test::Content::Gradient, 9);
  const Histogram reference =
      context.compute(other.view, tone_options(format), RunOptions{Strategy::Cpu});
  std::vector<std::byte> out(image.view.pixel_count() * 3);
  for (const Adjustment& a : every_adjustment(reference)) {
    EXPECT_EQ(adjuster.adjust_on_device(image.view, a, out), a.kind != AdjustKind::Threshold)
        << to_string(a.kind);
  }
  Histogram huge(256, true);
  for (Channel c : huge.channels()) {
    huge.counts(c)[0] = 1ULL << 32;
    huge.counts(c)[200] = 3;
  }
  Adjustment match;
  match.kind = AdjustKind::Match;
  match.channels = ToneChannels::Each;
  match.reference = &huge;
  EXPECT_FALSE(adjuster.adjust_on_device(image.view, match, out));
  std::vector<std::byte> cpu(out.size()), gpu(out.size());
  (void)adjust_image(context, image.view, match, cpu, RunOptions{Strategy::Cpu}, false);
  (void)adjust_image(context, image.view, match, gpu, RunOptions{Strategy::Gpu}, true);
  EXPECT_EQ(cpu, gpu);
}

TEST(AdjustImage, RefusesAShortOutputForEveryKind) {
  const Context& context = test::gpu_context();
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 16, 8, test::Content::Random, 4);
  for (AdjustKind kind :
       {AdjustKind::Equalize, AdjustKind::Clahe, AdjustKind::Autolevel, AdjustKind::Threshold}) {
    Adjustment a;
    a.kind = kind;
    std::vector<std::byte> out(
        image.view.pixel_count() * pixel_bytes(adjusted_format(image.view.format, a)) - 1);
    for (bool gpu : {true, false}) {
      EXPECT_THROW((void)adjust_image(context, image.view, a, out, {}, gpu), Error)
          << to_string(kind) << (gpu ? " gpu" : " cpu");
    }
  }
}

TEST(ApplyLut, GpuNeedsADevice) {
  const Context cpu_only = Context::open("cpu");
  const std::uint8_t pixels[1] = {7};
  Lut lut = random_lut({ChannelLayout::Grey, SampleType::U8}, LutTarget::Samples, 3);
  std::vector<std::byte> out(1);
  try {
    cpu_only.apply_lut(ImageView::packed(pixels, 1, 1, {ChannelLayout::Grey, SampleType::U8}), lut,
                       out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  }
}

TEST(ToneLuts, TablesByChannelOrByLuminance) {
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U16}, 64, 16, test::Content::Gradient, 5);
  const Context& context = test::gpu_context();
  const Histogram h =
      context.compute(image.view, tone_options(image.view.format), RunOptions{Strategy::Gpu});
  const Lut each = equalize_lut(h, image.view.format, ToneChannels::Each);
  const Lut shared = equalize_lut(h, image.view.format, ToneChannels::Luminance);
  for (Channel c : {Channel::Red, Channel::Green, Channel::Blue}) {
    EXPECT_EQ(each.tables[static_cast<std::size_t>(c)], equalize_table(h.counts(c)));
    EXPECT_EQ(shared.tables[static_cast<std::size_t>(c)],
              equalize_table(h.counts(Channel::Luminance)));
  }
  // A histogram with other bins than one per value is refused.
  const Histogram coarse = context.compute(image.view, {}, RunOptions{Strategy::Cpu});
  EXPECT_THROW((void)equalize_lut(coarse, image.view.format, ToneChannels::Each), Error);
}

}  // namespace
}  // namespace gpuhist
