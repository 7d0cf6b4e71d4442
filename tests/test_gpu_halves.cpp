// The `gpu` strategy's 16-bit shared counters and ranges of bins count
// exactly what cpu-reference counts: counters that carry many times
// (both halves of one word at once, and in parts of a range at different
// rates), every range boundary, every kind of load.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "count/gpu_counter.hpp"
#include "cpu/reference.hpp"
#include "support/compare.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"

namespace gpuhist {
namespace {

// Few workgroups, so that each counts many pixels into one counter.
count::GpuTuning few_groups() {
  count::GpuTuning tuning;
  tuning.groups_per_unit = 1;
  return tuning;
}

// Colour images are counted twice: reading the pixels, and from planes of
// bins (where the plan has ranges of bins).
void expect_exact(const ImageView& image, std::uint32_t bins, const count::GpuTuning& tuning,
                  count::GpuLimits limits = {}) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  const HistogramOptions options{bins};
  const Histogram expected = cpu::count_reference(image, options);
  const bool colour = image.format.layout != ChannelLayout::Grey;
  for (const bool planes : {false, true}) {
    if (planes && !colour) continue;
    count::GpuCounter counter(*device, limits);
    count::GpuTuning t = tuning;
    t.planes = planes;
    counter.set_tuning(t);
    EXPECT_TRUE(test::same_histograms(
        counter.count(image, options, Strategy::Gpu, ChunkShape::Row256x1), expected))
        << to_string(image.format) << " " << image.width << "x" << image.height << " bins " << bins
        << (planes ? " planes" : "");
  }
}

// Pixels alternating between two grey levels whose bins share a shared word:
// both halves of the word carry in the same rounds.
TEST(GpuHalves, NeighbouringCountersCarryTogether) {
  std::vector<std::uint16_t> samples;
  const std::uint32_t width = 512, height = 256;  // 65536 pixels of each level
  for (std::uint32_t i = 0; i < width * height; ++i) {
    const std::uint16_t v = i % 2 == 0 ? 100 : 101;
    samples.insert(samples.end(), {v, v, v, 65535});
  }
  const auto image =
      ImageView::packed(samples.data(), width, height, {ChannelLayout::RGBA, SampleType::U16});
  expect_exact(image, 65536, few_groups());
  count::GpuTuning ranged = few_groups();
  ranged.bin_ranges = 1;  // one whole channel of 4096 bins per workgroup
  expect_exact(image, 4096, ranged);
}

// Samples split unevenly between two ranges (a quarter at 100, the rest at
// 60000, three ranges of 21846 bins), so that the parts' counters
// carry at different rates, many times each, and the third part counts none.
TEST(GpuHalves, UnevenRangesCarryAtTheirOwnRates) {
  const std::uint32_t width = 512, height = 512;
  std::vector<std::uint16_t> grey, rgba;
  for (std::uint32_t i = 0; i < width * height; ++i) {
    const std::uint16_t v = i % 4 == 0 ? 100 : 60000;
    grey.push_back(v);
    rgba.insert(rgba.end(), {v, v, v, 7});
  }
  expect_exact(
      ImageView::packed(grey.data(), width, height, {ChannelLayout::Grey, SampleType::U16}), 65536,
      few_groups());
  expect_exact(
      ImageView::packed(rgba.data(), width, height, {ChannelLayout::RGBA, SampleType::U16}), 65536,
      few_groups());
  count::GpuTuning narrow = few_groups();
  narrow.wide_loads = false;
  expect_exact(
      ImageView::packed(rgba.data(), width, height, {ChannelLayout::RGBA, SampleType::U16}), 65536,
      narrow);
}

// A counter that ends a round at exactly 0x1000 and then takes a whole
// round's samples: the carry must move its 0x1000 first. With 256
// invocations and one 8-sample load per step, a round is 30 steps, 61440
// grey16 samples; on a device with one workgroup per range (two compute
// units), the first round holds the prefix: 4096 samples of 100 among others
// of 60000.
TEST(GpuHalves, CarryLeavesRoomForAWholeRound) {
  const std::uint32_t width = 512, height = 248;  // 61440 + 65536 samples
  std::vector<std::uint16_t> grey;
  for (std::uint32_t i = 0; i < 61440; ++i) grey.push_back(i % 15 == 0 ? 100 : 60000);
  grey.resize(std::size_t{width} * height, 100);
  count::GpuTuning tuning = few_groups();
  tuning.group_size = 256;
  tuning.unroll = 1;
  expect_exact(
      ImageView::packed(grey.data(), width, height, {ChannelLayout::Grey, SampleType::U16}), 65536,
      tuning);
}

// One colour: every pixel in one counter per channel, 16 grey8 samples or 4
// RGB8 pixels per load, and RGBA float (in ranges only when asked) read a
// pixel at a time.
TEST(GpuHalves, OneColourPassesTheCarryManyTimes) {
  for (const PixelFormat format : {PixelFormat{ChannelLayout::Grey, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::U16},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::F32}}) {
    const auto image = test::make_image(format, 601, 300, test::Content::Flat, 3);
    count::GpuTuning tuning = few_groups();
    tuning.bin_ranges = 1;  // the fewest that fit, float pixels too
    expect_exact(image.view, 65536, tuning);
  }
}

// Ranges forced on small histograms: bins on both sides of every boundary,
// with and without wide loads.
TEST(GpuHalves, RangeBoundaries) {
  for (const std::uint32_t ranges : {2U, 3U, 7U}) {
    for (const bool wide : {true, false}) {
      count::GpuTuning tuning;
      tuning.bin_ranges = ranges;
      tuning.wide_loads = wide;
      const auto gradient = test::make_image({ChannelLayout::RGBA, SampleType::U16}, 1000, 9,
                                             test::Content::Gradient);
      expect_exact(gradient.view, 1000, tuning);
      const auto random =
          test::make_image({ChannelLayout::RGB, SampleType::U8}, 333, 41, test::Content::Random, 5);
      expect_exact(random.view, 999, tuning);
      const auto rgba8 = test::make_image({ChannelLayout::RGBA, SampleType::U8}, 257, 33,
                                          test::Content::Random, 6);
      expect_exact(rgba8.view, 4097, tuning);
    }
  }
}

// 16-bit counters of all four channels (no ranges), the fewest channel groups that fit.
TEST(GpuHalves, PackedWithoutRanges) {
  count::GpuTuning tuning = few_groups();
  tuning.packed = true;
  for (const test::Content content : {test::Content::Flat, test::Content::Random}) {
    const auto image =
        test::make_image({ChannelLayout::RGBA, SampleType::U8}, 700, 200, content, 7);
    expect_exact(image.view, 4096, tuning);
    expect_exact(image.view, 256, tuning);
  }
}

// Ranges counted in slices of a few thousand pixels, into several global
// copies, and in batches of 5000 pixels.
TEST(GpuHalves, SlicesBatchesAndMergeCopies) {
  count::GpuTuning tuning;
  tuning.slice_pixels = 4000;
  tuning.merge_copies = 3;
  const auto image =
      test::make_image({ChannelLayout::RGB, SampleType::U16}, 257, 63, test::Content::Random, 11);
  expect_exact(image.view, 65536, tuning);
  tuning.last_group_sums = true;
  expect_exact(image.view, 65536, tuning);
  count::GpuLimits limits;
  limits.max_batch_bytes = 5000 * 6;
  expect_exact(image.view, 65536, tuning, limits);
  const auto grey = test::make_image({ChannelLayout::Grey, SampleType::F32}, 129, 100,
                                     test::Content::FloatSpecials, 4);
  tuning.bin_ranges = 1;  // the fewest that fit (float pixels have none unless asked)
  expect_exact(grey.view, 65536, tuning, limits);
}

}  // namespace
}  // namespace gpuhist
