// Images in host memory reach the device in four ways: imported where they
// lie (VK_EXT_external_memory_host), written in parts that the device copies
// as each lands (through staging that holds the batch or a ring of parts; a
// share of them, or all, written into mapped device memory instead), written whole into a staging
// buffer, or written whole into mapped device memory. Which way a device gets is chosen by
// choose_upload, tested here for discrete GPUs too. Every way, at every alignment of the first
// pixel, with packed and padded rows, parts of every size, several writing threads and batches of
// whole rows and of pieces of rows, gives the counts of cpu-reference.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <array>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#include "count/gpu_counter.hpp"
#include "count/host_upload.hpp"
#include "cpu/reference.hpp"
#include "support/compare.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"
#include "vulkan/device.hpp"
#include "vulkan/host_import.hpp"

namespace gpuhist {
namespace {

using Rows = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

TEST(ChooseUpload, MappedMemoryWhereTheDeviceHoldsItAndStagingElsewhere) {
  using count::Upload;
  const auto way = [](count::UploadSetup setup, bool unified, std::uint64_t mappable,
                      std::uint64_t bytes) {
    const count::UploadWay w = count::choose_upload(setup, unified, mappable, bytes);
    return std::tuple{w.path, w.mapped_sixteenths, w.ring_parts};
  };
  const std::uint64_t mib = 1 << 20;
  const std::uint64_t bar = std::uint64_t{140} << 30;  // a resizable BAR over all the memory
  using Way = std::tuple<Upload, std::uint32_t, std::uint32_t>;
  // Unified memory: the host writes where the shaders read, at every size.
  EXPECT_EQ(way({}, true, 0, 1024 * mib), Way(Upload::Mapped, 0, 0));
  EXPECT_EQ(way({Upload::Parts, 0, 0, true, 0, 5}, true, 0, 64 * mib), Way(Upload::Parts, 5, 0));
  EXPECT_EQ(way({Upload::Parts, 0, 0, true, 0, 5, 7}, true, 0, 64 * mib), Way(Upload::Parts, 5, 7));
  // A discrete GPU with a large mappable heap: whole up to 4 MiB, then a
  // quarter of the parts mapped, or the share asked for (at most all), and
  // a ring only where asked.
  EXPECT_EQ(way({}, false, bar, 4 * mib), Way(Upload::Mapped, 0, 0));
  EXPECT_EQ(way({}, false, bar, 4 * mib + 1), Way(Upload::Parts, 4, 0));
  EXPECT_EQ(way({}, false, bar, 1024 * mib), Way(Upload::Parts, 4, 0));
  EXPECT_EQ(way({Upload::Auto, 0, 0, true, 0, 3}, false, bar, 256 * mib), Way(Upload::Parts, 3, 0));
  EXPECT_EQ(way({Upload::Auto, 0, 0, true, 0, 0, 30}, false, bar, 256 * mib),
            Way(Upload::Parts, 4, 30));
  EXPECT_EQ(way({Upload::Parts, 0, 0, true, 0, 40}, false, bar, 256 * mib),
            Way(Upload::Parts, 16, 0));
  EXPECT_EQ(way({Upload::Mapped}, false, bar, 256 * mib), Way(Upload::Mapped, 0, 0));
  // A heap of less than twice the batch (a 256 MiB BAR): staging alone.
  const std::uint64_t small_bar = 256 * mib;
  EXPECT_EQ(way({}, false, small_bar, 2 * mib), Way(Upload::Mapped, 0, 0));
  EXPECT_EQ(way({}, false, small_bar, 32 * mib), Way(Upload::Parts, 4, 0));
  EXPECT_EQ(way({}, false, small_bar, 128 * mib), Way(Upload::Parts, 0, 0));
  EXPECT_EQ(way({Upload::Mapped}, false, small_bar, 128 * mib), Way(Upload::Parts, 0, 0));
  EXPECT_EQ(way({Upload::Parts, 0, 0, true, 0, 8}, false, small_bar, 128 * mib),
            Way(Upload::Parts, 0, 0));
  EXPECT_EQ(way({Upload::Auto, 0, 0, true, 0, 8, 16}, false, small_bar, 128 * mib),
            Way(Upload::Parts, 0, 16));
  // No mappable memory at all.
  EXPECT_EQ(way({}, false, 0, 16 * 16 * 4), Way(Upload::Parts, 0, 0));
  EXPECT_EQ(way({Upload::Mapped}, false, 0, 1024), Way(Upload::Parts, 0, 0));
  // The other ways as asked, with no mapped share and no ring.
  EXPECT_EQ(way({Upload::Staged, 0, 0, true, 0, 8, 4}, false, bar, mib), Way(Upload::Staged, 0, 0));
  EXPECT_EQ(way({Upload::Import, 0, 0, true, 0, 8, 4}, true, 0, mib), Way(Upload::Import, 0, 0));
}

TEST(SplitRows, CoversTheBatchInPartsOfAboutTheSizeAsked) {
  EXPECT_EQ(count::split_rows(10, 7, 100, 300, 256), (Rows{{10, 13}, {13, 16}, {16, 17}}));
  // At least one row a part.
  EXPECT_EQ(count::split_rows(0, 3, 100, 1, 256), (Rows{{0, 1}, {1, 2}, {2, 3}}));
  // No more parts than asked.
  EXPECT_EQ(count::split_rows(0, 10, 1, 1, 4), (Rows{{0, 3}, {3, 6}, {6, 9}, {9, 10}}));
  EXPECT_EQ(count::split_rows(5, 4, 8, 1 << 20, 256), (Rows{{5, 9}}));
}

TEST(ImportRegions, OneRegionForPackedRowsOrAPieceOfARowAndOneARowOtherwise) {
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const ImageView packed{reinterpret_cast<const void*>(64), 10, 6, 40, rgba8};
  auto r = count::import_regions(packed, count::Batch{2, 0, 30, 10}, 4, 7);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0].srcOffset, 7U + 80U);
  EXPECT_EQ(r[0].dstOffset, 0U);
  EXPECT_EQ(r[0].size, 120U);
  const ImageView padded{reinterpret_cast<const void*>(64), 10, 6, 48, rgba8};
  r = count::import_regions(padded, count::Batch{1, 0, 20, 10}, 4, 3);
  ASSERT_EQ(r.size(), 2U);
  EXPECT_EQ(r[1].srcOffset, 3U + 48U + 48U);
  EXPECT_EQ(r[1].dstOffset, 40U);
  EXPECT_EQ(r[1].size, 40U);
  r = count::import_regions(padded, count::Batch{4, 6, 4, 4}, 4, 0);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0].srcOffset, 4U * 48U + 24U);
  EXPECT_EQ(r[0].size, 16U);
}

TEST(PartRegions, RowsFromTheBatchsFirstRowOrThePieceFromTheStart) {
  const auto whole =
      count::part_regions(count::Batch{10, 0, 70, 10}, Rows{{10, 13}, {13, 17}}, 40, 280);
  ASSERT_EQ(whole.size(), 2U);
  EXPECT_EQ(whole[0].srcOffset, 0U);
  EXPECT_EQ(whole[0].size, 120U);
  EXPECT_EQ(whole[1].srcOffset, 120U);
  EXPECT_EQ(whole[1].dstOffset, 120U);
  EXPECT_EQ(whole[1].size, 160U);
  // A piece of row 7: the whole batch, from the start, whatever its row.
  const auto piece = count::part_regions(count::Batch{7, 250, 250, 250}, Rows{{0, 0}}, 2400, 1000);
  ASSERT_EQ(piece.size(), 1U);
  EXPECT_EQ(piece[0].srcOffset, 0U);
  EXPECT_EQ(piece[0].dstOffset, 0U);
  EXPECT_EQ(piece[0].size, 1000U);
}

// The pixels of `image` copied `offset` bytes into a buffer of their own.
struct Placed {
  std::vector<std::byte> bytes;
  ImageView view;
};

Placed place(const ImageView& image, std::size_t offset) {
  Placed out;
  const std::size_t span =
      (image.height - 1) * image.stride + std::size_t{image.width} * pixel_bytes(image.format);
  out.bytes.resize(offset + span + 64);
  std::memcpy(out.bytes.data() + offset, image.data, span);
  out.view = image;
  out.view.data = out.bytes.data() + offset;
  return out;
}

// Two random RGBA8 images of one size and their CPU counts, counted in turn:
// a part the host failed to write, or the device copied before it was
// written, leaves the other image's pixels.
struct InTurn {
  InTurn(std::uint32_t width, std::uint32_t height, std::uint32_t seed, std::size_t pad0,
         std::size_t pad1)
      : images{test::make_image(kRgba8, width, height, test::Content::Random, seed, pad0),
               test::make_image(kRgba8, width, height, test::Content::Random, seed + 1, pad1)},
        expected{cpu::count_reference(images[0].view, kOptions),
                 cpu::count_reference(images[1].view, kOptions)} {}

  // Counts image `i` with `strategy` and compares with its CPU counts.
  ::testing::AssertionResult count(count::GpuCounter& counter, std::size_t i,
                                   Strategy strategy = Strategy::Gpu) const {
    return test::same_histograms(
        counter.count(images[i].view, kOptions, strategy, ChunkShape::Row256x1), expected[i]);
  }
  // count() of the next image in turn.
  ::testing::AssertionResult next(count::GpuCounter& counter, Strategy strategy = Strategy::Gpu) {
    return count(counter, turn++ % 2, strategy);
  }

  static constexpr PixelFormat kRgba8{ChannelLayout::RGBA, SampleType::U8};
  static inline const HistogramOptions kOptions{256};
  std::array<test::TestImage, 2> images;
  std::array<Histogram, 2> expected;
  std::size_t turn = 0;
};

struct Case {
  PixelFormat format;
  std::uint32_t width, height, bins;
  std::size_t pad;
};

const Case kCases[] = {
    {{ChannelLayout::RGBA, SampleType::U8}, 97, 61, 256, 0},
    {{ChannelLayout::RGBA, SampleType::U8}, 33, 40, 256, 12},
    {{ChannelLayout::RGB, SampleType::U8}, 101, 23, 256, 5},
    {{ChannelLayout::Grey, SampleType::U8}, 255, 9, 256, 0},
    {{ChannelLayout::RGB, SampleType::U16}, 45, 31, 1000, 6},
    // Rows of 2400 bytes: with batches of 1000 bytes, pieces of every row.
    {{ChannelLayout::RGBA, SampleType::U8}, 600, 5, 256, 16},
};

TEST(GpuUpload, EveryWayAtEveryAlignmentAndStrideCountsExactly) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  std::uint32_t seed = 1;
  for (const Case& c : kCases) {
    const auto image =
        test::make_image(c.format, c.width, c.height, test::Content::Random, seed++, c.pad);
    const HistogramOptions options{c.bins};
    const Histogram expected = cpu::count_reference(image.view, options);
    const std::size_t sample = sample_bytes(c.format.sample);
    // Batches of whole rows, and (for rows longer than 1000 bytes) pieces of rows.
    for (const std::uint64_t batch_bytes : {std::uint64_t{1} << 20, std::uint64_t{1000}}) {
      count::GpuCounter counter(*device, count::GpuLimits{batch_bytes, 256ULL << 20});
      for (std::size_t offset = 0; offset < 24; offset += sample) {
        const Placed placed = place(image.view, offset);
        for (const count::Upload path :
             {count::Upload::Auto, count::Upload::Staged, count::Upload::Parts,
              count::Upload::Import, count::Upload::Mapped}) {
          // Parts with none, half or all of them written straight into the
          // mapped pixel buffer (all: a piece of a row, one part, too), through
          // staging that holds the batch or a ring of three parts.
          counter.set_upload({path, offset % 3 == 0 ? 0U : 700U,
                              static_cast<std::uint32_t>(1 + offset % 3),
                              (offset / sample) % 2 == 1, 1000,
                              static_cast<std::uint32_t>((offset / sample) % 3 * 8),
                              (offset / sample) % 4 >= 2 ? 3U : 0U});
          EXPECT_TRUE(test::same_histograms(
              counter.count(placed.view, options, Strategy::Gpu, ChunkShape::Row256x1), expected))
              << to_string(c.format) << " " << c.width << "x" << c.height << " stride "
              << image.view.stride << " offset " << offset << " path " << static_cast<int>(path)
              << " batch " << batch_bytes;
        }
      }
    }
  }
}

TEST(GpuUpload, PartsOfEverySizeAndThreadCount) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  InTurn images(64, 50, 9, 8, 8);
  count::GpuCounter counter(*device);
  // One row a part up to the whole image in one part; more parts than threads
  // (several copies a call) and more threads than parts.
  for (const std::uint64_t part : {1ULL, 256ULL, 257ULL, 1000ULL, 3000ULL, 12800ULL, 1ULL << 30}) {
    for (const std::uint32_t threads : {1U, 2U, 3U, 7U}) {
      for (const bool stream : {false, true}) {
        // None of the parts, some, or all of them written into the mapped
        // pixel buffer rather than staging.
        for (const std::uint32_t mapped : {0U, 5U, 16U}) {
          counter.set_upload({count::Upload::Parts, part, threads, stream, 1000, mapped});
          EXPECT_TRUE(images.next(counter))
              << "parts of " << part << " bytes, " << threads << " threads, stream " << stream
              << ", mapped sixteenths " << mapped;
        }
      }
    }
  }
  // The other strategies take the same upload.
  counter.set_upload({count::Upload::Parts, 1000, 2});
  for (const Strategy s : {Strategy::GpuAtomic, Strategy::GpuChunksReduce}) {
    EXPECT_TRUE(images.next(counter, s)) << to_string(s);
  }
}

TEST(GpuUpload, RingsOfEverySizePartAndThreadCount) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  // A slot written again before the device copied the part in it leaves
  // another part's pixels; one copied before it was written, the other image's.
  InTurn images(64, 50, 11, 0, 4);
  count::GpuCounter counter(*device);
  // A ring of three parts of 16 rows (4 KiB each): staging holds the ring
  // alone, not the image's 12.8 KB.
  counter.set_upload({count::Upload::Parts, 4096, 2, false, 1000, 0, 3});
  EXPECT_TRUE(images.count(counter, 0));
  EXPECT_GE(counter.staging_bytes(), 3U * 4096);
  EXPECT_LT(counter.staging_bytes(), 3U * 4096 + 64);
  // A row a part (50 parts) to five parts; a slot alone up to more slots than parts.
  for (const std::uint64_t part : {1ULL, 1000ULL, 3300ULL}) {
    for (const std::uint32_t threads : {1U, 2U, 7U}) {
      for (const std::uint32_t ring : {1U, 2U, 3U, 8U, 64U}) {
        for (const std::uint32_t mapped : {0U, 5U}) {
          counter.set_upload({count::Upload::Parts, part, threads, false, 1000, mapped, ring});
          EXPECT_TRUE(images.next(counter))
              << "parts of " << part << " bytes, " << threads << " threads, a ring of " << ring
              << ", mapped sixteenths " << mapped;
        }
      }
    }
  }
  // Larger parts, whose copies take the device long enough that a slot
  // written again too early shows.
  InTurn large(1024, 512, 13, 0, 0);
  for (const std::uint32_t ring : {2U, 3U, 5U}) {
    for (int repeat = 0; repeat < 4; ++repeat) {
      counter.set_upload({count::Upload::Parts, 64ULL << 10, 3, false, 1000, 0, ring});
      EXPECT_TRUE(large.next(counter)) << "parts of 64 KiB, a ring of " << ring;
    }
  }
}

TEST(HostImport, ImportsTheCallersPagesWhereTheDeviceCanAndRefusesCleanlyOtherwise) {
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr) << "no Vulkan device: GPU strategies must be tested";
  std::vector<std::byte> bytes(10000);
  const auto imported = vk::HostImport::create(*device, bytes.data() + 3, 5000);
  if (device->host_import_alignment() == 0) {
    EXPECT_FALSE(imported.has_value());
    GTEST_SKIP() << "the device imports no host memory";
  }
  ASSERT_TRUE(imported.has_value())
      << "a device with VK_EXT_external_memory_host refused heap memory";
  EXPECT_EQ((reinterpret_cast<std::uintptr_t>(bytes.data() + 3) - imported->offset()) %
                device->host_import_alignment(),
            0U);
  EXPECT_FALSE(vk::HostImport::create(*device, nullptr, 100).has_value());
  EXPECT_FALSE(vk::HostImport::create(*device, bytes.data(), 0).has_value());
  // A read-only mapping: imported or refused, the counts are exact either way.
  const std::size_t size = 1 << 16;
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* pixels = static_cast<std::uint8_t*>(map);
  for (std::size_t i = 0; i < size; ++i) pixels[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
  ASSERT_EQ(::mprotect(map, size, PROT_READ), 0);
  const ImageView view =
      ImageView::packed(pixels + 16, 100, 100, {ChannelLayout::RGBA, SampleType::U8});
  count::GpuCounter counter(*device);
  counter.set_upload({count::Upload::Import});
  EXPECT_TRUE(test::same_histograms(
      counter.count(view, HistogramOptions{256}, Strategy::Gpu, ChunkShape::Row256x1),
      cpu::count_reference(view, HistogramOptions{256})));
  ::munmap(map, size);
}

}  // namespace
}  // namespace gpuhist
