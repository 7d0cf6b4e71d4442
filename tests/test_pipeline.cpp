// The stage-overlapping helpers of video jobs: order kept, bounded queues,
// errors carried from the decoding and writing threads to the caller, and the
// frames of a real clip delivered in order by DecodeAhead.
#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/pipeline.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {
namespace {

TEST(BoundedQueue, KeepsOrderAcrossThreadsAndDrainsAfterClose) {
  BoundedQueue<int> queue(2);
  std::thread producer([&] {
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(queue.push(i));
    queue.close();
  });
  int expected = 0;
  while (auto item = queue.pop()) EXPECT_EQ(*item, expected++);
  producer.join();
  EXPECT_EQ(expected, 1000);
  EXPECT_FALSE(queue.push(5));  // closed
}

TEST(BoundedQueue, CancelUnblocksAWaitingProducer) {
  BoundedQueue<int> queue(1);
  ASSERT_TRUE(queue.push(1));
  std::atomic<bool> refused = false;
  std::thread producer([&] { refused = !queue.push(2); });  // waits: the queue is full
  queue.cancel();
  producer.join();
  EXPECT_TRUE(refused);
  EXPECT_FALSE(queue.pop().has_value());  // cancel dropped the queued item
}

TEST(WriteBehind, WritesEveryItemInOrder) {
  std::vector<int> written;
  WriteBehind<int> writer([&](int& v) { written.push_back(v); }, 2);
  for (int i = 0; i < 500; ++i) writer.push(i);
  writer.finish();
  ASSERT_EQ(written.size(), 500U);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(written[i], i);
}

TEST(WriteBehind, CarriesAWriteErrorToTheCaller) {
  int calls = 0;
  WriteBehind<int> writer(
      [&](int& v) {
        ++calls;
        if (v == 3) throw Error(ErrorKind::Output, "disk full");
      },
      1);
  EXPECT_THROW(
      {
        for (int i = 0; i < 100; ++i) writer.push(i);
        writer.finish();
      },
      Error);
  EXPECT_EQ(calls, 4);  // nothing is written after the failure
}

class DecodeAheadClip : public testing::Test {
 protected:
  std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() / ("gpuhist_pipeline_" + std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
};

TEST_F(DecodeAheadClip, DeliversEveryFrameInOrder) {
  const auto clip = dir_ / "clip.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24:rate=10 -frames:v 9 -c:v ffv1 '" +
                           clip.string() + "'"));
  VideoReader reader(clip);
  VideoReader same(clip);
  DecodeAhead ahead(reader, {}, 2);
  VideoFrame direct;
  std::int64_t count = 0;
  while (std::optional<VideoFrame> frame = ahead.next()) {
    ASSERT_TRUE(same.next(direct));
    EXPECT_EQ(frame->index, count);
    EXPECT_EQ(frame->time, direct.time);
    EXPECT_EQ(test::pixel_bytes_of(frame->image.view()), test::pixel_bytes_of(direct.image.view()));
    ++count;
  }
  EXPECT_FALSE(same.next(direct));
  EXPECT_EQ(count, 9);
}

// Y'CbCr frames view the decoder's own buffers: they stay whole after the
// decoding and converting threads and the reader are gone, and equal what
// next() gives, plane by plane (4:2:0 H.264 at an odd size, 10 frames).
TEST_F(DecodeAheadClip, PlanesOutliveTheReader) {
  const auto clip = dir_ / "planes.mp4";
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=98x54:rate=10 -frames:v 10 -c:v libx264 "
                   "-pix_fmt yuv420p '" +
                   clip.string() + "'"));
  std::vector<VideoFrame> kept;
  {
    VideoReader reader(clip, kDefaultMaxPixels, FrameSpace::YCbCr);
    DecodeAhead ahead(reader, {}, 1);
    while (std::optional<VideoFrame> frame = ahead.next()) kept.push_back(std::move(*frame));
  }
  VideoReader same(clip, kDefaultMaxPixels, FrameSpace::YCbCr);
  VideoFrame direct;
  ASSERT_EQ(kept.size(), 10U);
  for (const VideoFrame& frame : kept) {
    ASSERT_TRUE(same.next(direct));
    EXPECT_EQ(frame.index, direct.index);
    ASSERT_EQ(frame.planes.size(), 3U);
    ASSERT_EQ(direct.planes.size(), 3U);
    EXPECT_EQ(frame.planes[1].width, 49U);
    EXPECT_EQ(frame.planes[1].height, 27U);
    for (std::size_t c = 0; c < 3; ++c) {
      EXPECT_EQ(test::pixel_bytes_of(frame.planes[c]), test::pixel_bytes_of(direct.planes[c]))
          << "frame " << frame.index << " plane " << c;
    }
  }
  EXPECT_FALSE(same.next(direct));
}

// The caller stopping after every possible frame, with the queues one deep:
// both threads are stopped and joined wherever they wait.
TEST_F(DecodeAheadClip, StopsAfterAnyFrame) {
  const auto clip = dir_ / "short.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24:rate=10 -frames:v 6 -c:v ffv1 '" +
                           clip.string() + "'"));
  for (int stop = 0; stop <= 7; ++stop) {
    VideoReader reader(clip);
    DecodeAhead ahead(reader, {}, 1);
    for (int i = 0; i < stop; ++i) {
      const std::optional<VideoFrame> frame = ahead.next();
      EXPECT_EQ(frame.has_value(), i < 6) << stop;
    }
  }
}

// An error on the decoding thread (here, the damage callback's own) reaches
// the caller after every frame before it, once, and the threads stop: an
// MJPEG clip whose sixth frame is wiped, the callback throwing there.
TEST_F(DecodeAheadClip, DecodingErrorComesAfterTheFramesBeforeIt) {
  const auto damaged = dir_ / "damaged.avi";
  ASSERT_TRUE(test::damaged_mjpeg_clip(dir_.string(), damaged.string()));
  for (const std::size_t depth : {1U, 3U, 16U}) {
    VideoReader reader(damaged);
    DecodeAhead ahead(
        reader, [](const std::string& cause) { throw std::runtime_error("stopped: " + cause); },
        depth);
    std::int64_t frames = 0;
    try {
      while (const std::optional<VideoFrame> frame = ahead.next()) {
        EXPECT_EQ(frame->index, frames) << depth;
        ++frames;
      }
      ADD_FAILURE() << "no error after " << frames << " frames, depth " << depth;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("stopped: ", 0), 0U) << e.what();
    }
    EXPECT_EQ(frames, 5) << depth;
  }
}

TEST_F(DecodeAheadClip, StopsEarlyWithoutHanging) {
  const auto clip = dir_ / "long.mkv";
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24:rate=10 -frames:v 200 -c:v ffv1 '" +
                           clip.string() + "'"));
  VideoReader reader(clip);
  DecodeAhead ahead(reader, {}, 2);
  ASSERT_TRUE(ahead.next().has_value());
  // Leaving scope with 199 frames undecoded must join the decoding thread.
}

}  // namespace
}  // namespace gpuhist
