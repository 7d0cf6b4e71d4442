// Every setting of the `gpu` strategy's knobs counts exactly what cpu-reference
// counts: the benchmark may pick any of them as a device's default.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <tuple>
#include <vector>

#include "count/gpu_counter.hpp"
#include "cpu/reference.hpp"
#include "support/compare.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"

namespace gpuhist {
namespace {

// copies, copy shift, wide loads, uniform runs, interleaved copies, unroll (and merge copies)
using Knobs = std::tuple<std::uint32_t, std::uint32_t, bool, bool, bool, std::uint32_t>;

class GpuTuningKnobs : public ::testing::TestWithParam<Knobs> {};

TEST_P(GpuTuningKnobs, MatchReference) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  const auto& [copies, shift, wide, uniform, interleave, unroll] = GetParam();
  count::GpuCounter counter(*device);
  count::GpuTuning tuning;
  tuning.copies = copies;
  tuning.copy_shift = shift;
  tuning.wide_loads = wide;
  tuning.experiments.uniform_runs = uniform;
  tuning.experiments.interleave = interleave;
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
  tuning.experiments.quad_runs = unroll == 2;
  // RGBA8 loads of 32 invocations read as rows of 32 pixels, with and
  // without slices (whose first loads are not multiples of 32).
  tuning.experiments.rows = wide && uniform == interleave;
  // Counting in global memory: equal bins of a subgroup grouped for 0, 1 or 2 rounds first.
  tuning.experiments.global_rounds = uniform ? 2U : (interleave ? 1U : 0U);
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

// Every setting of the knobs: 96 sets, each with pipelines of its own, which
// the software device takes about twenty minutes to build from an empty
// shader cache. A long test (scripts/test.sh --long).
std::vector<Knobs> every_setting() {
  std::vector<Knobs> all;
  for (std::uint32_t copies : {0U, 1U, 3U}) {
    for (std::uint32_t shift : {0U, 5U}) {
      for (bool wide : {false, true}) {
        for (bool uniform : {false, true}) {
          for (bool interleave : {false, true}) {
            for (std::uint32_t unroll : {2U, 4U}) {
              all.emplace_back(copies, shift, wide, uniform, interleave, unroll);
            }
          }
        }
      }
    }
  }
  return all;
}

// The settings as six values, each knob's by its place in its list.
std::array<std::uint32_t, 6> levels(const Knobs& k) {
  const auto& [copies, shift, wide, uniform, interleave, unroll] = k;
  return {copies == 0   ? 0U
          : copies == 1 ? 1U
                        : 2U,
          shift == 0 ? 0U : 1U,
          wide ? 1U : 0U,
          uniform ? 1U : 0U,
          interleave ? 1U : 0U,
          unroll == 2 ? 0U : 1U};
}

// Every pair of values of every two knobs, as an index.
std::vector<std::uint32_t> pairs_of(const Knobs& k) {
  const auto v = levels(k);
  std::vector<std::uint32_t> out;
  for (std::uint32_t a = 0; a < 6; ++a) {
    for (std::uint32_t b = a + 1; b < 6; ++b) out.push_back(((a * 6 + b) * 3 + v[a]) * 3 + v[b]);
  }
  return out;
}

// Settings whose knobs switch on the same paths as the full product: every
// pair of values of every two knobs (the derived settings below depend on
// pairs and triples of them), chosen greedily from the product, then any set
// that brings in a triple that decides a derived setting (packed counters,
// rows of 32 pixels) not yet met.
std::vector<Knobs> covering_settings() {
  const std::vector<Knobs> all = every_setting();
  std::set<std::uint32_t> uncovered;
  for (const Knobs& k : all) {
    for (std::uint32_t p : pairs_of(k)) uncovered.insert(p);
  }
  std::vector<Knobs> chosen;
  while (!uncovered.empty()) {
    std::size_t best = 0, best_count = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      std::size_t count = 0;
      for (std::uint32_t p : pairs_of(all[i])) count += uncovered.count(p);
      if (count > best_count) {
        best = i;
        best_count = count;
      }
    }
    chosen.push_back(all[best]);
    for (std::uint32_t p : pairs_of(all[best])) uncovered.erase(p);
  }
  // packed = shift 5 and wide == interleave; rows = wide and uniform == interleave.
  const auto derived = [](const Knobs& k) {
    const auto& [copies, shift, wide, uniform, interleave, unroll] = k;
    return std::array<bool, 4>{shift == 5 && wide == interleave,
                               !(shift == 5 && wide == interleave), wide && uniform == interleave,
                               !(wide && uniform == interleave)};
  };
  for (std::size_t d = 0; d < 4; ++d) {
    if (std::none_of(chosen.begin(), chosen.end(), [&](const Knobs& k) { return derived(k)[d]; })) {
      chosen.push_back(
          *std::find_if(all.begin(), all.end(), [&](const Knobs& k) { return derived(k)[d]; }));
    }
  }
  return chosen;
}

TEST(GpuTuningCovering, EveryPairOfKnobValuesIsCounted) {
  const std::vector<Knobs> chosen = covering_settings();
  std::set<std::uint32_t> all_pairs, covered;
  for (const Knobs& k : every_setting()) {
    for (std::uint32_t p : pairs_of(k)) all_pairs.insert(p);
  }
  for (const Knobs& k : chosen) {
    for (std::uint32_t p : pairs_of(k)) covered.insert(p);
  }
  EXPECT_EQ(covered, all_pairs);
  EXPECT_LE(chosen.size(), 12U);  // what keeps the default suite fast on a software device
}

INSTANTIATE_TEST_SUITE_P(Covering, GpuTuningKnobs, ::testing::ValuesIn(covering_settings()));
INSTANTIATE_TEST_SUITE_P(Full, GpuTuningKnobs, ::testing::ValuesIn(every_setting()));

}  // namespace
}  // namespace gpuhist
