// DecodeFiles: images handed over in list order whatever order the threads
// finish in, each failure rethrown for its own file, and no more than the
// window decoded ahead.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gpuhist/decode_files.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "support/without_threads.hpp"

namespace gpuhist {
namespace {

std::vector<std::filesystem::path> numbered(std::size_t count) {
  std::vector<std::filesystem::path> files;
  for (std::size_t i = 0; i < count; ++i) files.emplace_back(std::to_string(i));
  return files;
}

// An image whose width is the file's number; every third file fails, and
// files finish out of order.
Image fake_load(const std::filesystem::path& path) {
  const std::uint32_t n = std::stoul(path.string());
  std::this_thread::sleep_for(std::chrono::microseconds((n * 7919U) % 3000U));
  if (n % 3 == 2) throw std::runtime_error("file " + path.string() + " fails");
  return Image::allocate(n + 1, 1, {ChannelLayout::Grey, SampleType::U8});
}

TEST(DecodeFiles, HandsOverInListOrderWithEachFailureInItsPlace) {
  for (const unsigned threads : {1U, 2U, 3U, 8U}) {
    DecodeFiles files(numbered(40), fake_load, threads);
    EXPECT_EQ(files.threads(), threads);
    for (std::uint32_t n = 0; n < 40; ++n) {
      if (n % 3 == 2) {
        try {
          (void)files.next();
          ADD_FAILURE() << "file " << n << " should fail";
        } catch (const std::runtime_error& e) {
          EXPECT_EQ(std::string(e.what()), "file " + std::to_string(n) + " fails");
        }
      } else {
        const std::optional<Image> image = files.next();
        ASSERT_TRUE(image);
        EXPECT_EQ(image->width, n + 1) << threads << " threads";
      }
    }
    EXPECT_FALSE(files.next());
    EXPECT_FALSE(files.next());
  }
}

// Where no thread can be started (a process limit), the files are still
// handed over, in order, each failure in its place: next() decodes them.
TEST(DecodeFiles, WithoutThreadsNextDecodesEachFile) {
  const std::optional<bool> passed = test::without_threads([] {
    DecodeFiles files(numbered(10), fake_load, 4);
    if (files.threads() != 0) return false;
    for (std::uint32_t n = 0; n < 10; ++n) {
      try {
        const std::optional<Image> image = files.next();
        if (n % 3 == 2 || !image || image->width != n + 1) return false;
      } catch (const std::runtime_error&) {
        if (n % 3 != 2) return false;
      }
    }
    return !files.next();
  });
  if (!passed) GTEST_SKIP() << "needs root, and a limit of processes that holds";
  EXPECT_TRUE(*passed);
}

TEST(DecodeFiles, DecodesNoMoreThanTheWindowAhead) {
  std::atomic<int> started{0};
  constexpr std::size_t kAhead = 3;
  DecodeFiles files(
      numbered(30),
      [&](const std::filesystem::path& path) {
        ++started;
        return fake_load(std::to_string(std::stoul(path.string()) * 3));  // none fails
      },
      4, kAhead);
  for (std::size_t taken = 0; taken < 30; ++taken) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_LE(static_cast<std::size_t>(started.load()), taken + kAhead);
    ASSERT_TRUE(files.next());
  }
  EXPECT_EQ(started.load(), 30);
}

TEST(DecodeFiles, NoFilesAndFewerFilesThanThreads) {
  DecodeFiles none({}, fake_load, 4);
  EXPECT_EQ(none.threads(), 0U);
  EXPECT_FALSE(none.next());
  DecodeFiles two(numbered(2), fake_load);
  EXPECT_LE(two.threads(), 2U);
  EXPECT_EQ(two.next()->width, 1U);
  EXPECT_EQ(two.next()->width, 2U);
  EXPECT_FALSE(two.next());
}

TEST(DecodeFiles, StopsPartWayWithoutTakingTheRest) {
  std::atomic<int> started{0};
  {
    DecodeFiles files(
        numbered(1000),
        [&](const std::filesystem::path& path) {
          ++started;
          return fake_load(std::to_string(std::stoul(path.string()) * 3));
        },
        2);
    ASSERT_TRUE(files.next());
  }
  EXPECT_LT(started.load(), 10);
}

TEST(DecodeFiles, RealFilesMatchLoadImage) {
  const std::filesystem::path data = std::filesystem::path(GPUHIST_SOURCE_DIR) / "data";
  const std::vector<std::filesystem::path> paths = {data / "rocket.jpg", data / "coffee.png",
                                                    data / "missing.png", data / "rocket.jpg"};
  DecodeFiles files(paths, [](const std::filesystem::path& p) { return load_image(p); }, 2);
  for (const auto& path : paths) {
    if (!std::filesystem::exists(path)) {
      EXPECT_THROW((void)files.next(), Error);
      continue;
    }
    const Image expected = load_image(path);
    const std::optional<Image> image = files.next();
    ASSERT_TRUE(image);
    ASSERT_EQ(image->width, expected.width);
    ASSERT_EQ(image->height, expected.height);
    for (std::uint32_t y = 0; y < expected.height; ++y) {
      const std::byte* a = image->view().row(y);
      const std::byte* b = expected.view().row(y);
      const std::size_t bytes = std::size_t{expected.width} * pixel_bytes(expected.format);
      ASSERT_TRUE(std::equal(a, a + bytes, b)) << path << " row " << y;
    }
  }
}

}  // namespace
}  // namespace gpuhist
