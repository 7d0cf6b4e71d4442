// Every strategy equals cpu-reference, bit for bit: every pixel format, odd
// sizes, padded rows, every kind of content, bin counts from 1 to 65536, both
// luminance weights and both chunk shapes.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "support/compare.hpp"
#include "support/shared_context.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_names.hpp"

namespace gpuhist {
namespace {

using test::Content;

// Every strategy except the oracle itself.
std::vector<Strategy> strategies_under_test() {
  std::vector<Strategy> out;
  for (Strategy s : all_strategies()) {
    if (s != Strategy::CpuReference) out.push_back(s);
  }
  return out;
}

using Size = std::pair<std::uint32_t, std::uint32_t>;
Size wh(std::uint32_t w, std::uint32_t h) { return {w, h}; }

std::string name_of(Strategy s) { return test::test_name(s); }

void expect_matches_reference(const ImageView& image, const HistogramOptions& options,
                              const RunOptions& run) {
  const Context& context = test::gpu_context();
  ASSERT_TRUE(context.device() != nullptr || !runs_on_gpu(*run.strategy))
      << "no Vulkan device: GPU strategies must be tested";
  const Histogram expected = context.compute(image, options, RunOptions{Strategy::CpuReference});
  const Histogram actual = context.compute(image, options, run);
  EXPECT_TRUE(test::same_histograms(actual, expected));
  for (Channel channel : expected.channels()) {
    EXPECT_EQ(actual.total(channel), image.pixel_count());
  }
}

// Sizes x formats, random pixels, 256 bins, rows padded by 4 bytes on odd widths.
using SizeParam = std::tuple<Strategy, PixelFormat, std::pair<std::uint32_t, std::uint32_t>>;
class Sizes : public ::testing::TestWithParam<SizeParam> {};

TEST_P(Sizes, MatchReference) {
  const auto& [strategy, format, size] = GetParam();
  const std::size_t pad = size.first % 2 == 1 ? 4 : 0;
  const auto image = test::make_image(format, size.first, size.second, Content::Random, 7, pad);
  expect_matches_reference(image.view, HistogramOptions{}, RunOptions{strategy});
}

std::string Sizes_name(const ::testing::TestParamInfo<Sizes::ParamType>& info) {
  const auto& [s, f, size] = info.param;
  return name_of(s) + "_" + to_string(f) + "_" + std::to_string(size.first) + "x" +
         std::to_string(size.second);
}

INSTANTIATE_TEST_SUITE_P(All, Sizes,
                         ::testing::Combine(::testing::ValuesIn(strategies_under_test()),
                                            ::testing::ValuesIn(test::all_formats()),
                                            ::testing::Values(wh(1, 1), wh(1, 7), wh(7, 1),
                                                              wh(257, 3), wh(4097, 2), wh(33, 17))),
                         Sizes_name);

// Bin counts x formats, 257x3 pixels of random content and float specials.
using BinsParam = std::tuple<Strategy, PixelFormat, std::uint32_t>;
class Bins : public ::testing::TestWithParam<BinsParam> {};

TEST_P(Bins, MatchReference) {
  const auto& [strategy, format, bins] = GetParam();
  const Content content =
      format.sample == SampleType::F32 ? Content::FloatSpecials : Content::Random;
  const auto image = test::make_image(format, 257, 3, content, bins);
  expect_matches_reference(image.view, HistogramOptions{bins}, RunOptions{strategy});
}

std::string Bins_name(const ::testing::TestParamInfo<Bins::ParamType>& info) {
  const auto& [s, f, bins] = info.param;
  return name_of(s) + "_" + to_string(f) + "_" + std::to_string(bins);
}

INSTANTIATE_TEST_SUITE_P(
    All, Bins,
    ::testing::Combine(::testing::ValuesIn(strategies_under_test()),
                       ::testing::Values(PixelFormat{ChannelLayout::RGBA, SampleType::U8},
                                         PixelFormat{ChannelLayout::RGB, SampleType::U16},
                                         PixelFormat{ChannelLayout::RGBA, SampleType::F32},
                                         PixelFormat{ChannelLayout::Grey, SampleType::U16}),
                       ::testing::Values(1U, 3U, 256U, 1000U, 4096U, 65536U)),
    Bins_name);

// Content kinds x luminance weights on a 300x200 image.
using ContentParam = std::tuple<Strategy, PixelFormat, Content, LumaWeights>;
class Contents : public ::testing::TestWithParam<ContentParam> {};

TEST_P(Contents, MatchReference) {
  const auto& [strategy, format, content, luma] = GetParam();
  const auto image = test::make_image(format, 300, 200, content, 3);
  expect_matches_reference(image.view, HistogramOptions{256, luma}, RunOptions{strategy});
}

std::string Contents_name(const ::testing::TestParamInfo<Contents::ParamType>& info) {
  const auto& [s, f, content, luma] = info.param;
  return name_of(s) + "_" + to_string(f) + "_" + test::to_string(content) + "_" +
         std::string(to_string(luma));
}

INSTANTIATE_TEST_SUITE_P(
    All, Contents,
    ::testing::Combine(::testing::ValuesIn(strategies_under_test()),
                       ::testing::Values(PixelFormat{ChannelLayout::RGBA, SampleType::U8},
                                         PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                         PixelFormat{ChannelLayout::Grey, SampleType::U16},
                                         PixelFormat{ChannelLayout::RGB, SampleType::F32}),
                       ::testing::Values(Content::Random, Content::Flat, Content::Gradient,
                                         Content::FloatSpecials),
                       ::testing::Values(LumaWeights::Rec709, LumaWeights::Rec601)),
    Contents_name);

// The 16x16 chunk shape, including images narrower and shorter than a tile.
using ChunkParam = std::tuple<Strategy, std::pair<std::uint32_t, std::uint32_t>, std::uint32_t>;
class Chunks16x16 : public ::testing::TestWithParam<ChunkParam> {};

TEST_P(Chunks16x16, MatchReference) {
  const auto& [strategy, size, bins] = GetParam();
  const auto image = test::make_image({ChannelLayout::RGBA, SampleType::U8}, size.first,
                                      size.second, Content::Random, 11);
  RunOptions run{strategy, ChunkShape::Tile16x16};
  expect_matches_reference(image.view, HistogramOptions{bins}, run);
}

std::string Chunks16x16_name(const ::testing::TestParamInfo<Chunks16x16::ParamType>& info) {
  const auto& [s, size, bins] = info.param;
  return name_of(s) + "_" + std::to_string(size.first) + "x" + std::to_string(size.second) + "_" +
         std::to_string(bins);
}

INSTANTIATE_TEST_SUITE_P(
    All, Chunks16x16,
    ::testing::Combine(::testing::Values(Strategy::GpuChunksSum, Strategy::GpuChunksReduce),
                       ::testing::Values(wh(1, 1), wh(15, 33), wh(257, 3), wh(100, 100)),
                       ::testing::Values(256U, 65536U)),
    Chunks16x16_name);

// `cpu` on a limited number of threads (RunOptions::threads) counts the same:
// every pixel format, rows split into one part and into several.
TEST(Strategies, CpuOnFewerThreadsMatchesReference) {
  const PixelFormat formats[] = {{ChannelLayout::Grey, SampleType::U8},
                                 {ChannelLayout::RGB, SampleType::U8},
                                 {ChannelLayout::RGBA, SampleType::U16},
                                 {ChannelLayout::RGB, SampleType::F32}};
  for (const PixelFormat& format : formats) {
    const auto image = test::make_image(format, 1031, 517, Content::Random, 11, 4);
    for (const std::uint32_t threads : {1U, 2U, 3U, 64U}) {
      SCOPED_TRACE(to_string(format) + " on " + std::to_string(threads) + " threads");
      RunOptions run{Strategy::Cpu};
      run.threads = threads;
      expect_matches_reference(image.view, HistogramOptions{}, run);
    }
  }
}

// RunOptions::poll: called between blocks of rows (about a megapixel each)
// on the calling thread, the counts exact with it; what it throws ends the
// count and reaches the caller as it was thrown, and the context counts on.
TEST(Strategies, CpuPollsBetweenBlocksAndStopsWhenThePollThrows) {
  struct Stop {};
  const Context cpu = Context::open("cpu");
  for (const PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::Grey, SampleType::U16}}) {
    SCOPED_TRACE(to_string(format));
    // 3.1 megapixels, with rows of an odd length: blocks of 512 rows and a rest.
    const auto image = test::make_image(format, 2047, 1537, Content::Random, 12);
    for (const std::uint32_t threads : {1U, 2U}) {
      int polls = 0;
      RunOptions run{Strategy::Cpu};
      run.threads = threads;
      run.poll = [&polls] { ++polls; };
      expect_matches_reference(image.view, HistogramOptions{}, run);
      EXPECT_GE(polls, threads == 1 ? 3 : 2) << threads << " threads";
      run.poll = [&polls] {
        if (++polls > 1) throw Stop{};
      };
      polls = 0;
      EXPECT_THROW((void)cpu.compute(image.view, {}, run), Stop) << threads << " threads";
      run.poll = {};
      expect_matches_reference(image.view, HistogramOptions{}, run);
    }
  }
}

TEST(Strategies, CpuOnlyContextRefusesGpuStrategies) {
  const Context cpu = Context::open("cpu");
  EXPECT_EQ(cpu.device(), nullptr);
  EXPECT_EQ(cpu.default_strategy(), Strategy::Cpu);
  const auto image = test::make_image({ChannelLayout::RGB, SampleType::U8}, 4, 4, Content::Random);
  try {
    (void)cpu.compute(image.view, {}, RunOptions{Strategy::Gpu});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  }
}

TEST(Strategies, InvalidInputsAreRejected) {
  const Context& context = test::gpu_context();
  const auto image = test::make_image({ChannelLayout::RGB, SampleType::U16}, 4, 4, Content::Random);
  for (std::uint32_t bins : {0U, 65537U}) {
    EXPECT_THROW((void)context.compute(image.view, HistogramOptions{bins}), Error);
  }
  ImageView empty = image.view;
  empty.width = 0;
  EXPECT_THROW((void)context.compute(empty), Error);
  ImageView short_stride = image.view;
  short_stride.stride = 4;
  EXPECT_THROW((void)context.compute(short_stride), Error);
  ImageView misaligned = image.view;
  misaligned.data = static_cast<const std::byte*>(image.view.data) + 1;
  EXPECT_THROW((void)context.compute(misaligned), Error);
  ImageView null = image.view;
  null.data = nullptr;
  EXPECT_THROW((void)context.compute(null), Error);
  // Rows whose end no address reaches (stride x height past 2^64).
  ImageView endless = image.view;
  endless.height = 0xFFFFFFFFU;
  endless.stride = std::size_t{1} << 62;
  EXPECT_THROW((void)context.compute(endless), Error);
  EXPECT_THROW(validate(endless), Error);
  // Enumerations cast from numbers that name none: said, not taken for another.
  ImageView unknown_sample = image.view;
  unknown_sample.format.sample = static_cast<SampleType>(7);
  EXPECT_THROW((void)context.compute(unknown_sample), Error);
  RunOptions bad_strategy;
  bad_strategy.strategy = static_cast<Strategy>(42);
  EXPECT_THROW((void)context.compute(image.view, {}, bad_strategy), Error);
  RunOptions bad_chunk;
  bad_chunk.strategy = Strategy::GpuChunksSum;
  bad_chunk.chunk = static_cast<ChunkShape>(5);
  EXPECT_THROW((void)context.compute(image.view, {}, bad_chunk), Error);
}

}  // namespace
}  // namespace gpuhist
