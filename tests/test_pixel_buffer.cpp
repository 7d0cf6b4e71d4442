// PixelBuffer (aligned, padded, copied and moved as values; large buffers
// freed are kept and handed to the next buffer of about their size (not in
// sanitizer builds, which must see every use after free)), and stream_copy.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "core/stream_copy.hpp"
#include "gpuhist/pixel_buffer.hpp"

namespace gpuhist {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

bool aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % PixelBuffer::kAlignment == 0;
}

TEST(PixelBuffer, AlignedPaddedAndWritableToItsCapacity) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4095}, std::size_t{4096}, kMiB - 1, kMiB,
                            3 * kMiB + 17}) {
    PixelBuffer b(bytes);
    EXPECT_TRUE(aligned(b.data())) << bytes;
    EXPECT_EQ(b.size(), bytes);
    EXPECT_GE(b.capacity(), bytes + PixelBuffer::kPadding);
    std::memset(b.data(), 0x5A, b.capacity());  // every byte of the capacity may be touched
  }
  EXPECT_TRUE(PixelBuffer().empty());
  EXPECT_EQ(PixelBuffer(0).data(), nullptr);
}

TEST(PixelBuffer, CopiesAndMovesKeepTheBytes) {
  PixelBuffer a(2 * kMiB);
  for (std::size_t i = 0; i < a.size(); ++i) a.data()[i] = std::byte(i * 7);
  const PixelBuffer copy = a;
  ASSERT_EQ(copy.size(), a.size());
  EXPECT_EQ(std::memcmp(copy.data(), a.data(), a.size()), 0);
  const std::byte* where = a.data();
  PixelBuffer moved = std::move(a);
  EXPECT_EQ(moved.data(), where);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  EXPECT_EQ(std::memcmp(moved.data(), copy.data(), copy.size()), 0);
}

TEST(PixelBuffer, AFreedLargeBufferServesTheNextOfAboutItsSize) {
  if (!PixelBuffer::keeps_freed()) GTEST_SKIP() << "sanitizer build: nothing is kept";
  const std::byte* first = nullptr;
  {
    PixelBuffer b(36 * kMiB);
    first = b.data();
  }
  {
    PixelBuffer again(36 * kMiB - 100);  // about the same size: the same memory
    EXPECT_EQ(again.data(), first);
    std::memset(again.data(), 1, again.capacity());
  }
  {
    PixelBuffer smaller(8 * kMiB);  // far smaller: not given a 36 MiB buffer
    EXPECT_NE(smaller.data(), first);
  }
}

TEST(PixelBuffer, TheNewestFreedAreKeptWithinTheLimits) {
  if (!PixelBuffer::keeps_freed()) GTEST_SKIP() << "sanitizer build: nothing is kept";
  // Ten freed buffers of distinct sizes: the two oldest are dropped, the
  // newest eight handed back to buffers of their sizes.
  std::vector<const std::byte*> where;
  {
    std::vector<PixelBuffer> held;
    for (std::size_t i = 0; i < 10; ++i) {
      held.emplace_back((2 + 2 * i) * kMiB);
      where.push_back(held.back().data());
    }
  }  // freed in order, 2 MiB first
  std::vector<PixelBuffer> again;
  for (std::size_t i = 2; i < 10; ++i) {
    again.emplace_back((2 + 2 * i) * kMiB);
    EXPECT_EQ(again.back().data(), where[i]) << i;
  }
}

TEST(PixelBuffer, ManyThreadsAllocateAndFreeAtOnce) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 50; ++i) {
        PixelBuffer b((2 + (i + t) % 5) * kMiB);
        std::memset(b.data(), t, b.capacity());
        // Nobody else writes into a buffer while it is held.
        for (std::size_t at = 0; at < b.capacity(); at += 4096) ASSERT_EQ(b.data()[at], std::byte(t));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

TEST(StreamCopy, EqualsMemcpyAtEveryAlignmentAndLength) {
  std::vector<unsigned char> source(4096 + 256);
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 131 + 7);
  std::vector<unsigned char> out(source.size() + 64), expected(out.size());
  for (std::size_t from = 0; from < 20; ++from) {
    for (std::size_t to = 0; to < 20; ++to) {
      for (std::size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 200, 1000, 4096}) {
        std::fill(out.begin(), out.end(), 0xEE);
        expected = out;
        std::memcpy(expected.data() + to, source.data() + from, n);
        stream_copy(out.data() + to, source.data() + from, n);
        ASSERT_EQ(out, expected) << "from +" << from << " to +" << to << ", " << n << " bytes";
      }
    }
  }
}

}  // namespace
}  // namespace gpuhist
