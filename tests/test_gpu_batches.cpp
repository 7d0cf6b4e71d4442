// Images larger than one batch (whole rows, and rows split into pieces) and
// chunk strategies that need several waves: shrunken limits make small images
// take those paths, and the counts must still equal cpu-reference.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench_stream.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/reference.hpp"
#include "device_probes.hpp"
#include "support/compare.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"
#include "support/test_names.hpp"

namespace gpuhist {
namespace {

TEST(PlanBatches, WholeRowsWhenARowFits) {
  const auto batches = count::plan_batches(10, 7, 30);
  ASSERT_EQ(batches.size(), 3U);  // 3 + 3 + 1 rows
  EXPECT_EQ(batches[0].pixel_count, 30U);
  EXPECT_EQ(batches[2].y0, 6U);
  EXPECT_EQ(batches[2].pixel_count, 10U);
  for (const auto& b : batches) EXPECT_EQ(b.width, 10U);
}

TEST(PlanBatches, RowPiecesWhenARowIsTooLong) {
  const auto batches = count::plan_batches(10, 2, 4);
  ASSERT_EQ(batches.size(), 6U);  // 4 + 4 + 2 per row
  EXPECT_EQ(batches[1].x0, 4U);
  EXPECT_EQ(batches[2].pixel_count, 2U);
  EXPECT_EQ(batches[3].y0, 1U);
  EXPECT_EQ(batches[3].x0, 0U);
}

class SmallLimits : public ::testing::TestWithParam<Strategy> {};

TEST_P(SmallLimits, ManyBatchesAndWaves) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  struct Case {
    PixelFormat format;
    std::uint32_t width, height, bins;
    count::GpuLimits limits;
  };
  const Case cases[] = {
      // 4 rows of RGBA8 per batch: 25 batches of whole rows.
      {{ChannelLayout::RGBA, SampleType::U8}, 100, 100, 256, {1600, 64 * 1024}},
      // Rows of 600 RGB16 pixels split into pieces of 170 pixels.
      {{ChannelLayout::RGB, SampleType::U16}, 600, 5, 1000, {1024, 16000 * 2}},
      // One chunk histogram per wave.
      {{ChannelLayout::Grey, SampleType::F32}, 513, 9, 4096, {1 << 20, 1}},
  };
  for (const Case& c : cases) {
    count::GpuCounter counter(*device, c.limits);
    const auto image = test::make_image(c.format, c.width, c.height, test::Content::Random, 5, 8);
    const HistogramOptions options{c.bins};
    const Histogram expected = cpu::count_reference(image.view, options);
    for (ChunkShape shape : {ChunkShape::Row256x1, ChunkShape::Tile16x16}) {
      EXPECT_TRUE(
          test::same_histograms(counter.count(image.view, options, GetParam(), shape), expected))
          << to_string(c.format) << " " << c.width << "x" << c.height;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, SmallLimits,
                         ::testing::Values(Strategy::GpuSingle, Strategy::GpuAtomic,
                                           Strategy::GpuChunksSum, Strategy::GpuChunksReduce,
                                           Strategy::Gpu),
                         test::StrategyName{});

// A stream of frames from host memory, several in flight, each slot's
// commands recorded once and submitted again: every frame's counts come back,
// the last one's equal cpu-reference, in every mode (the frame written
// into its slot once, or before each submission), on two queues where the
// device has them, whether the merge copies are summed by a pass or by the
// last workgroup (the copies and its ticket must be left clear for the slot's
// next frame; a frame whose counts were not written reads as empty), or not
// used at all.
TEST(Stream, FramesFromHostMemoryCountExactly) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  const auto image =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 301, 47, test::Content::Random, 3);
  const Histogram expected = cpu::count_reference(image.view, {});
  for (std::uint32_t merge : {1U, 4U}) {
    for (bool last_group : {false, true}) {
      count::GpuCounter counter(*device);
      count::GpuTuning tuning;
      tuning.merge_copies = merge;
      tuning.last_group_sums = last_group;
      counter.set_tuning(tuning);
      for (count::StreamMode mode :
           {count::StreamMode::Direct, count::StreamMode::Copy, count::StreamMode::Push}) {
        for (const auto& [in_flight, batch] : {std::pair{1U, 1U}, {3U, 1U}, {2U, 3U}}) {
          // 7 frames: whole submissions of `batch` frames, rounded up.
          count::StreamSetup setup;
          setup.slots = in_flight;
          setup.mode = mode;
          setup.queues = 2;
          setup.frames_per_submit = batch;
          // Frames copied in on several threads (push), in host-cached or upload memory.
          setup.copy_threads = batch == 3 ? 3 : 0;
          setup.cached = in_flight != 3;
          const bench::StreamResult r = bench::stream_rate(counter, image.view, {}, 7, setup);
          const std::string what = "merge " + std::to_string(merge) + " last group " +
                                   std::to_string(last_group) + " in flight " +
                                   std::to_string(in_flight) + " batch " + std::to_string(batch);
          EXPECT_TRUE(test::same_histograms(r.histogram, expected)) << what;
          EXPECT_EQ(r.differing, 0U) << what;
          EXPECT_EQ(r.frames, (7 + batch - 1) / batch * batch) << what;
          EXPECT_EQ(r.frames_per_submit, batch);
          EXPECT_EQ(r.queues, std::min(2U, device->queue_count()));
          EXPECT_GT(r.fps, 0.0);
          EXPECT_NEAR(r.gbps, r.fps * 301 * 47 * 4 / 1e9, r.gbps * 1e-9) << what;
        }
      }
    }
  }
}

TEST(Stream, ShaderCopyRateIsMeasured) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr);
  bench::DeviceProbes probes(*device);
  EXPECT_GT(probes.shader_copy_rate(1 << 20, 2), 0.0);
  EXPECT_GT(probes.shader_read_rate(1 << 20, 2), 0.0);
}

// With merge copies nothing is cleared between runs: each run's merge pass
// leaves the copies zero. Repeated runs in one submission (profile), repeated
// calls, batches, and a switch to a chunk strategy (which leaves its chunk
// histograms in the same buffer) must all still count exactly.
TEST(MergeCopies, SelfClearingAcrossRunsCallsAndStrategies) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  count::GpuLimits limits;
  limits.max_batch_bytes = 40000;  // several batches per image
  count::GpuCounter counter(*device, limits);
  count::GpuTuning tuning;
  tuning.merge_copies = 5;
  counter.set_tuning(tuning);
  const auto image =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 211, 67, test::Content::Random, 11);
  const Histogram expected = cpu::count_reference(image.view, {});
  for (int call = 0; call < 2; ++call) {
    EXPECT_TRUE(test::same_histograms(
        counter.count(image.view, {}, Strategy::Gpu, ChunkShape::Row256x1), expected));
  }
  const auto small =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 50, 40, test::Content::Gradient, 2);
  EXPECT_TRUE(test::same_histograms(
      counter.profile(small.view, {}, Strategy::Gpu, ChunkShape::Row256x1, 4).histogram,
      cpu::count_reference(small.view, {})));
  (void)counter.count(image.view, {}, Strategy::GpuChunksReduce, ChunkShape::Row256x1);
  EXPECT_TRUE(test::same_histograms(
      counter.count(image.view, {}, Strategy::Gpu, ChunkShape::Row256x1), expected));
}

}  // namespace
}  // namespace gpuhist
