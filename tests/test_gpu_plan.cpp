// The `gpu` strategies' plans, made from a device's limits without a device:
// batches cover every pixel once within the limits, counters fit the shared
// memory they are placed in, loops stay within what software drivers run, and
// the defaults differ between hardware GPUs and software devices as documented.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "count/gpu_plan.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

using count::GpuLimits;
using count::GpuPlan;
using count::GpuTuning;
using count::plan_gpu;

// Limits as an H200 reports them, and as Mesa's lavapipe does.
DeviceInfo h200() {
  DeviceInfo info;
  info.name = "NVIDIA H200";
  info.type = DeviceType::DiscreteGpu;
  info.max_invocations = 1024;
  info.max_workgroup_size = {1024, 1024, 64};
  info.max_workgroup_count = {2147483647, 65535, 65535};
  info.max_shared_memory = 49152;
  info.subgroup_size = 32;
  info.subgroup_operations = {"basic", "vote", "ballot", "arithmetic"};
  info.max_storage_buffer_range = 4294967295ULL;
  info.compute_units = 132;
  return info;
}

DeviceInfo lavapipe() {
  DeviceInfo info;
  info.name = "llvmpipe";
  info.type = DeviceType::Cpu;
  info.max_invocations = 1024;
  info.max_workgroup_size = {1024, 1024, 1024};
  info.max_workgroup_count = {65535, 65535, 65535};
  info.max_shared_memory = 32768;
  info.subgroup_size = 8;
  info.subgroup_operations = {"basic", "vote", "ballot"};
  info.max_storage_buffer_range = 134217728;
  info.compute_units = 2;
  return info;
}

ImageView shape(std::uint32_t width, std::uint32_t height, PixelFormat format) {
  // The plan reads the view's shape and format, never its pixels.
  static const std::byte none{};
  return ImageView::packed(&none, width, height, format);
}

const PixelFormat kRgba8{ChannelLayout::RGBA, SampleType::U8};
const PixelFormat kRgb16{ChannelLayout::RGB, SampleType::U16};
const PixelFormat kGrey8{ChannelLayout::Grey, SampleType::U8};
const PixelFormat kRgbaF{ChannelLayout::RGBA, SampleType::F32};

GpuPlan plan(const DeviceInfo& info, const ImageView& image, std::uint32_t bins,
             Strategy strategy = Strategy::Gpu, const GpuLimits& limits = {},
             const GpuTuning& tuning = {}) {
  HistogramOptions options;
  options.bins = bins;
  return plan_gpu(info, limits, tuning, image, options, strategy, ChunkShape::Row256x1);
}

// Every pixel in exactly one batch, each within the byte limit.
void expect_covers(const GpuPlan& p, const ImageView& image, std::uint64_t max_bytes) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> starts;
  std::uint64_t pixels = 0;
  for (const count::Batch& b : p.batches) {
    EXPECT_LE(std::uint64_t{b.pixel_count} * p.bpp, max_bytes);
    EXPECT_TRUE(starts.emplace(b.y0, b.x0).second) << "two batches start at one pixel";
    EXPECT_EQ(b.pixel_count % b.width, 0U);
    pixels += b.pixel_count;
  }
  EXPECT_EQ(pixels, image.pixel_count());
}

TEST(GpuPlan, BatchesCoverTheImageWithinTheLimits) {
  GpuLimits limits;
  limits.max_batch_bytes = 1 << 20;
  for (const ImageView& image :
       {shape(1000, 777, kRgba8), shape(300000, 3, kRgb16), shape(1, 5000, kGrey8)}) {
    for (const Strategy s : {Strategy::Gpu, Strategy::GpuAtomic, Strategy::GpuChunksReduce}) {
      const GpuPlan p = plan(lavapipe(), image, 256, s, limits);
      expect_covers(p, image, limits.max_batch_bytes);
    }
  }
}

TEST(GpuPlan, BatchesByDefaultAreAnEighthOfTheDevicesMemoryFrom256MiBTo1GiB) {
  // 16384x16384 RGBA8, 1 GiB of pixels.
  const ImageView image = shape(16384, 16384, kRgba8);
  const auto batches = [&](std::uint64_t memory, const GpuLimits& limits) {
    DeviceInfo info = h200();
    info.device_local_memory = memory;
    const GpuPlan p = plan(info, image, 256, Strategy::Gpu, limits);
    expect_covers(p, image, std::uint64_t{1} << 30);
    return p.batches.size();
  };
  const std::uint64_t gib = 1ULL << 30;
  EXPECT_EQ(batches(140 * gib, {}), 1U);  // an H200: one batch
  EXPECT_EQ(batches(4 * gib, {}), 2U);    // 512 MiB batches
  EXPECT_EQ(batches(2 * gib, {}), 4U);    // never under 256 MiB
  EXPECT_EQ(batches(0, {}), 4U);
  GpuLimits asked;
  asked.max_batch_bytes = 128ULL << 20;
  EXPECT_EQ(batches(140 * gib, asked), 8U);  // a limit asked for holds
}

TEST(GpuPlan, RowsLongerThanABatchAreSplitIntoPieces) {
  const std::vector<count::Batch> batches = count::plan_batches(10, 3, 4);
  ASSERT_EQ(batches.size(), 9U);  // three pieces of 4, 4 and 2 pixels on each row
  EXPECT_EQ(batches[2].x0, 8U);
  EXPECT_EQ(batches[2].pixel_count, 2U);
  EXPECT_EQ(batches[3].y0, 1U);
}

TEST(GpuPlan, CountersFitTheSharedMemoryTheyArePlacedIn) {
  for (const DeviceInfo& info : {h200(), lavapipe()}) {
    for (const std::uint32_t bins : {1U, 256U, 1024U, 4096U, 65536U}) {
      for (const PixelFormat format : {kRgba8, kRgb16, kGrey8, kRgbaF}) {
        const GpuPlan p = plan(info, shape(640, 480, format), bins);
        const std::string what = info.name + ", " + std::to_string(bins) + " bins";
        if (p.packed) {
          EXPECT_LE(std::uint64_t{count::halves_words(p.bins, p.split, p.ranges)} * 4,
                    info.max_shared_memory)
              << what;
          EXPECT_EQ(p.copies, 1U) << what;
        } else if (p.copies > 0) {
          EXPECT_LE(p.copies * (p.histogram_bytes / p.split + (p.interleave ? 0 : 4)),
                    info.max_shared_memory)
              << what;
        }
        EXPECT_LE(p.group_size, info.max_invocations) << what;
        EXPECT_GE(p.groups_cap, 1U) << what;
        EXPECT_LE(p.groups_cap, info.max_workgroup_count[0]) << what;
      }
    }
  }
}

TEST(GpuPlan, ManyBinsOfIntegerSamplesAreCountedInRangesOfSixteenBitCounters) {
  const GpuPlan p = plan(h200(), shape(4096, 4096, kRgb16), 65536);
  EXPECT_TRUE(p.packed);
  EXPECT_GT(p.ranges, 1U);
  EXPECT_EQ(p.split, 4U);
  EXPECT_TRUE(p.planes);  // colour pixels: each range reads its channel's plane
  // Float samples stay in global memory.
  const GpuPlan f = plan(h200(), shape(4096, 4096, kRgbaF), 65536);
  EXPECT_EQ(f.copies, 0U);
  EXPECT_EQ(f.ranges, 1U);
}

TEST(GpuPlan, HardwareAndSoftwareDefaultsDiffer) {
  const GpuPlan gpu = plan(h200(), shape(7680, 4320, kRgba8), 256);
  EXPECT_EQ(gpu.group_size, 1024U);
  EXPECT_EQ(gpu.unroll, 2U);
  EXPECT_EQ(gpu.merge_copies, 4U);
  EXPECT_TRUE(gpu.last_group_sums);
  EXPECT_EQ(gpu.slice_pixels, 1U << 25);
  EXPECT_EQ(gpu.groups_cap, 132U);  // one workgroup of 1024 per compute unit
  const GpuPlan cpu = plan(lavapipe(), shape(7680, 4320, kRgba8), 256);
  EXPECT_EQ(cpu.group_size, 512U);
  EXPECT_EQ(cpu.unroll, 1U);
  EXPECT_EQ(cpu.merge_copies, 1U);
  EXPECT_EQ(cpu.slice_pixels, 0U);
}

TEST(GpuPlan, ExperimentsAreOffUnlessSet) {
  const GpuPlan off = plan(h200(), shape(1920, 1080, kRgba8), 256);
  EXPECT_FALSE(off.uniform_runs || off.interleave || off.quad_runs || off.rows);
  EXPECT_EQ(off.global_rounds, 0U);
  GpuTuning tuning;
  tuning.experiments.quad_runs = true;
  tuning.experiments.rows = true;
  const GpuPlan on = plan(h200(), shape(1920, 1080, kRgba8), 256, Strategy::Gpu, {}, tuning);
  EXPECT_TRUE(on.quad_runs);
  EXPECT_TRUE(on.rows);
}

TEST(GpuPlan, ChunksTheDeviceCannotRunAreRefused) {
  DeviceInfo small = lavapipe();
  small.max_invocations = 128;
  HistogramOptions options;
  EXPECT_THROW((void)plan_gpu(small, {}, {}, shape(64, 64, kRgba8), options, Strategy::GpuChunksSum,
                              ChunkShape::Tile16x16),
               Error);
}

TEST(GpuPlan, PackedCountersRoundBeforeASixteenBitCounterCanOverflow) {
  const GpuPlan p = plan(h200(), shape(4096, 4096, kGrey8), 65536);
  ASSERT_TRUE(p.packed);
  const std::uint32_t per_load = p.wide ? count::pixels_per_load(p.count_bpp()) : 1;
  EXPECT_LE(std::uint64_t{p.round_iterations} * p.group_size * per_load * (p.wide ? p.unroll : 1),
            0xF000U);
  EXPECT_GT(p.round_iterations, 0U);
}

}  // namespace
}  // namespace gpuhist
