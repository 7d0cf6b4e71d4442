// Every setting of the `gpu` strategy's knobs counts exactly what cpu-reference
// counts: the benchmark may pick any of them as a device's default.
#include <gtest/gtest.h>

#include <tuple>

#include "cpu/reference.hpp"
#include "support/compare.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"
#include "vulkan/gpu_counter.hpp"

namespace gpuhist {
namespace {

// copies, copy shift, wide loads, uniform runs, interleaved copies, unroll (and merge copies)
using Knobs = std::tuple<std::uint32_t, std::uint32_t, bool, bool, bool, std::uint32_t>;

class GpuTuningKnobs : public ::testing::TestWithParam<Knobs> {};

TEST_P(GpuTuningKnobs, MatchReference) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  const auto& [copies, shift, wide, uniform, interleave, unroll] = GetParam();
  vk::GpuCounter counter(*device);
  vk::GpuTuning tuning;
  tuning.copies = copies;
  tuning.copy_shift = shift;
  tuning.wide_loads = wide;
  tuning.uniform_runs = uniform;
  tuning.interleave = interleave;
  tuning.unroll = unroll;
  // Small and large workgroups, few (long grid-stride loops) and many of them
  // (unroll 1, the software default, runs in every other GPU test).
  tuning.group_size = shift == 0 ? 64U : 256U;
  tuning.groups_per_unit = unroll == 2 ? 1U : 4U;

  // One global histogram, or several that workgroups take in turn.
  tuning.merge_copies = unroll == 4 ? 7U : (copies == 0 ? 3U : 1U);
  // Channel groups: the default (the fewest that fit), two, and four.
  if (wide) tuning.split = uniform ? 2U : 4U;
  // Packed 16-bit counters (which override copies).
  tuning.packed = shift == 5 && wide == interleave;
  // 65536 bins in ranges of bins (16-bit counters), or without private copies
  // in global memory.
  if (copies == 0) tuning.bin_ranges = 0U;
  // Whole batches, and slices of 4000 pixels per dispatch.
  tuning.slice_pixels = interleave ? 4000U : 0U;
  // With merge copies: a pass sums them, or the last workgroup to merge does.
  tuning.last_group_sums = interleave != uniform;
  // Four equal pixels of a load added at once, or one by one.
  tuning.quad_runs = unroll == 2;
  // RGBA8 loads of 32 invocations read as rows of 32 pixels, with and
  // without slices (whose first loads are not multiples of 32).
  tuning.rows = wide && uniform == interleave;
  // Counting in global memory: equal bins of a subgroup grouped for 0, 1 or 2 rounds first.
  tuning.global_rounds = uniform ? 2U : (interleave ? 1U : 0U);
  counter.set_tuning(tuning);
  struct Case {
    PixelFormat format;
    std::uint32_t width, height, bins;
    test::Content content;
    bool wide_only = false;  // a path of its own only with wide loads
  };
  const Case cases[] = {
      {{ChannelLayout::RGBA, SampleType::U8}, 333, 41, 256, test::Content::Random},
      {{ChannelLayout::RGBA, SampleType::U8}, 333, 41, 256, test::Content::Flat},
      {{ChannelLayout::RGBA, SampleType::U8}, 1023, 7, 256, test::Content::Gradient},
      {{ChannelLayout::RGBA, SampleType::U8}, 3, 1, 1000, test::Content::Flat},
      {{ChannelLayout::RGB, SampleType::U16}, 129, 33, 4096, test::Content::Flat},
      // RGB read three words (four RGB8 or two RGB16 pixels) at a time, with
      // pixels left over (without wide loads, as the case above).
      {{ChannelLayout::RGB, SampleType::U8}, 333, 41, 256, test::Content::Random, true},
      {{ChannelLayout::RGB, SampleType::U8}, 1021, 9, 1000, test::Content::Gradient, true},
      {{ChannelLayout::RGB, SampleType::U16}, 67, 29, 4096, test::Content::Random, true},
      {{ChannelLayout::RGBA, SampleType::U16}, 97, 31, 2048, test::Content::Random},
      // An odd number of pixels (two per 16-byte load), and a histogram only
      // global memory holds.
      {{ChannelLayout::RGBA, SampleType::U16}, 61, 19, 4096, test::Content::Gradient},
      {{ChannelLayout::RGBA, SampleType::U16}, 61, 19, 65536, test::Content::Random},
      // One colour, more than 65535 pixels per workgroup: 16-bit counters carry.
      {{ChannelLayout::RGBA, SampleType::U16}, 1023, 130, 4096, test::Content::Flat},
      {{ChannelLayout::Grey, SampleType::U8}, 257, 9, 256, test::Content::Flat},
      // Grey read sixteen 8-bit or eight 16-bit samples per 16-byte load, with samples left over.
      {{ChannelLayout::Grey, SampleType::U8}, 333, 7, 256, test::Content::Random, true},
      {{ChannelLayout::Grey, SampleType::U16}, 131, 7, 4096, test::Content::Random, true},
      {{ChannelLayout::Grey, SampleType::F32}, 129, 7, 1024, test::Content::FloatSpecials, true},
      {{ChannelLayout::RGBA, SampleType::F32}, 65, 65, 1024, test::Content::FloatSpecials},
  };
  for (const Case& c : cases) {
    // The RGB and grey loads feed the same counting as the others; with subgroup votes
    // and grouped global atomics together (whose pipelines take the software
    // device a minute to build) those are covered by the RGBA cases.
    if (c.wide_only && (!wide || (uniform && copies == 0))) continue;
    const auto image = test::make_image(c.format, c.width, c.height, c.content, 9);
    const HistogramOptions options{c.bins};
    EXPECT_TRUE(test::same_histograms(
        counter.count(image.view, options, Strategy::Gpu, ChunkShape::Row256x1),
        cpu::count_reference(image.view, options)))
        << to_string(c.format) << " " << test::to_string(c.content) << " bins " << c.bins;
  }
}

INSTANTIATE_TEST_SUITE_P(Knobs, GpuTuningKnobs,
                         ::testing::Combine(::testing::Values(0U, 1U, 3U),
                                            ::testing::Values(0U, 5U), ::testing::Bool(),
                                            ::testing::Bool(), ::testing::Bool(),
                                            ::testing::Values(2U, 4U)));

}  // namespace
}  // namespace gpuhist
