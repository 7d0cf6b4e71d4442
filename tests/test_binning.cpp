// The binning formula (README.md, "What is counted") checked against exact rationals, on the
// CPU functions and on every strategy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/binning.hpp"
#include "gpuhist/context.hpp"
#include "support/shared_context.hpp"
#include "support/test_names.hpp"

namespace gpuhist {
namespace {

using binning::channel_bin;
using binning::luma_bin;
using binning::luma_sum;

// One pixel, its luminance weights, bit depth and bin count, and the bin the
// exact rational s * N / (10000 * M) floors to (the value is in the comment).
struct LumaCase {
  std::uint32_t r, g, b;
  LumaWeights luma;
  std::uint32_t max_value, bins, expected;
};

const std::vector<LumaCase> kLumaCases = {
    {134, 1, 37, LumaWeights::Rec709, 255, 256, 32},      // s = 318750: exactly 32
    {116, 1, 90, LumaWeights::Rec709, 255, 256, 31},      // s = 318748: 5099968/159375 = 31.99998
    {246, 127, 225, LumaWeights::Rec709, 255, 256, 160},  // s = 1593750: exactly 160
    {211, 137, 229, LumaWeights::Rec709, 255, 256, 159},  // 25499968/159375 = 159.99999
    {255, 0, 170, LumaWeights::Rec601, 255, 256, 96},     // s = 956250: exactly 96
    {224, 2, 241, LumaWeights::Rec601, 255, 256, 95},     // 3059968/31875 = 95.99900
    {249, 31, 137, LumaWeights::Rec709, 255, 3, 1},       // s = 850000: exactly 1
    {248, 21, 239, LumaWeights::Rec709, 255, 3, 0},       // 424999/425000
    {255, 255, 255, LumaWeights::Rec709, 255, 3, 2},      // exactly 3, clamped to N - 1
    {0, 0, 0, LumaWeights::Rec709, 255, 1, 0},            // one bin holds everything
    {255, 255, 255, LumaWeights::Rec709, 255, 1, 0},
    {16500, 0, 64875, LumaWeights::Rec709, 65535, 65536, 8192},  // exactly 8192
    {16482, 0, 64928, LumaWeights::Rec709, 65535, 65536,
     8191},                                              // 335539191808/40959375 = 8191.99998
    {35, 0, 2620, LumaWeights::Rec709, 65535, 1000, 3},  // exactly 3
    {17, 0, 2673, LumaWeights::Rec709, 65535, 1000, 2},  // 983024/327675 = 2.99999
    {65535, 65535, 65535, LumaWeights::Rec709, 65535, 65536, 65535},  // exactly 65536, clamped
};

TEST(Binning, ChannelBinsAreExactRationals) {
  EXPECT_EQ(channel_bin(85, 255, 3), 1U);       // 85 * 3 / 255 = 1 exactly
  EXPECT_EQ(channel_bin(84, 255, 3), 0U);       // 252 / 255
  EXPECT_EQ(channel_bin(170, 255, 3), 2U);      // exactly 2
  EXPECT_EQ(channel_bin(169, 255, 3), 1U);      // 507 / 255 = 1.988
  EXPECT_EQ(channel_bin(255, 255, 3), 2U);      // 3, clamped to N - 1
  EXPECT_EQ(channel_bin(128, 255, 256), 128U);  // 32768 / 255 = 128.5
  EXPECT_EQ(channel_bin(255, 255, 1000), 999U);
  EXPECT_EQ(channel_bin(51, 255, 1000), 200U);  // exactly 200
  EXPECT_EQ(channel_bin(50, 255, 1000), 196U);  // 50000 / 255 = 196.08
  EXPECT_EQ(channel_bin(65535, 65535, 65536), 65535U);
  EXPECT_EQ(channel_bin(32768, 65535, 65536), 32768U);  // 32768 * 65536 / 65535 = 32768.5
  EXPECT_EQ(channel_bin(13107, 65535, 1000), 200U);     // exactly 200
  EXPECT_EQ(channel_bin(13106, 65535, 1000), 199U);     // 199.98
  EXPECT_EQ(channel_bin(1, 255, 65536), 257U);          // 65536 / 255 = 257.003
}

TEST(Binning, LuminanceBinsAreExactRationals) {
  for (const LumaCase& c : kLumaCases) {
    const auto s = luma_sum(binning::int_weights(c.luma), c.r, c.g, c.b);
    EXPECT_EQ(luma_bin(s, c.max_value, c.bins), c.expected)
        << c.r << "," << c.g << "," << c.b << " bins " << c.bins;
  }
}

TEST(Binning, FloatBinsRoundTheProductOnce) {
  EXPECT_EQ(binning::unit_bin(0.5f, 256), 128U);                        // exactly 128
  EXPECT_EQ(binning::unit_bin(std::nextafter(0.5f, 0.0f), 256), 127U);  // 127.99998
  EXPECT_EQ(binning::unit_bin(1.0f, 256), 255U);                        // 256, clamped
  EXPECT_EQ(binning::unit_bin(0.0f, 256), 0U);
  // 0.001f is 0.0010000000475; times 1000 it rounds to exactly 1.0f: bin 1.
  EXPECT_EQ(binning::unit_bin(0.001f, 1000), 1U);
  // 0.3f * 10 = 3.0000001192 rounds to 3.0f.
  EXPECT_EQ(binning::unit_bin(0.3f, 10), 3U);
  EXPECT_EQ(binning::clamp_unit(std::nanf("")), 0.0f);
  EXPECT_EQ(binning::clamp_unit(-1.0f), 0.0f);
  EXPECT_EQ(binning::clamp_unit(INFINITY), 1.0f);
  EXPECT_EQ(binning::clamp_unit(2.0f), 1.0f);
  // Grey (r = g = b = 1) sums to 1.0000000 in float order (0.2126 + 0.7152) + 0.0722.
  EXPECT_EQ(binning::float_luma(binning::float_weights(LumaWeights::Rec709), 1.0f, 1.0f, 1.0f),
            1.0f);
}

// The same boundary pixels, one 1x1 image each, through every strategy.
class BinningOnStrategy : public ::testing::TestWithParam<Strategy> {};

TEST_P(BinningOnStrategy, LuminanceBoundaries) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr) << "no Vulkan device: GPU strategies must be tested";
  for (const LumaCase& c : kLumaCases) {
    const PixelFormat format{ChannelLayout::RGB,
                             c.max_value == 255 ? SampleType::U8 : SampleType::U16};
    std::uint32_t storage[2] = {0, 0};
    if (c.max_value == 255) {
      const std::uint8_t px[3] = {static_cast<std::uint8_t>(c.r), static_cast<std::uint8_t>(c.g),
                                  static_cast<std::uint8_t>(c.b)};
      std::memcpy(storage, px, 3);
    } else {
      const std::uint16_t px[3] = {static_cast<std::uint16_t>(c.r), static_cast<std::uint16_t>(c.g),
                                   static_cast<std::uint16_t>(c.b)};
      std::memcpy(storage, px, 6);
    }
    const Histogram h = context.compute(ImageView::packed(storage, 1, 1, format),
                                        HistogramOptions{c.bins, c.luma}, RunOptions{GetParam()});
    EXPECT_EQ(h.counts(Channel::Luminance)[c.expected], 1U)
        << c.r << "," << c.g << "," << c.b << " bins " << c.bins;
  }
}

TEST_P(BinningOnStrategy, FloatBoundaries) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  struct FloatCase {
    float v;
    std::uint32_t bins, expected;
  };
  const FloatCase cases[] = {
      {0.5f, 256, 128},      {std::nextafter(0.5f, 0.0f), 256, 127},
      {1.0f, 256, 255},      {0.001f, 1000, 1},
      {0.3f, 10, 3},         {std::nanf(""), 16, 0},
      {-INFINITY, 16, 0},    {INFINITY, 16, 15},
      {0.75f, 65536, 49152}, {std::numeric_limits<float>::denorm_min(), 65536, 0}};
  for (const FloatCase& c : cases) {
    const Histogram h =
        context.compute(ImageView::packed(&c.v, 1, 1, {ChannelLayout::Grey, SampleType::F32}),
                        HistogramOptions{c.bins}, RunOptions{GetParam()});
    EXPECT_EQ(h.counts(Channel::Luminance)[c.expected], 1U) << c.v << " bins " << c.bins;
  }
}

INSTANTIATE_TEST_SUITE_P(All, BinningOnStrategy, ::testing::ValuesIn(all_strategies()),
                         test::StrategyName{});

}  // namespace
}  // namespace gpuhist
