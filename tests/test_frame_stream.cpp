// FrameStream: a stream of frames counted with several in flight returns every
// frame's histogram, exact and in push order, whether the frames are copied in
// or written in place, on the GPU slots and on the paths that count at once.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "cpu/reference.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/frame_stream.hpp"
#include "support/compare.hpp"
#include "support/shared_context.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {
namespace {

struct Frames {
  std::vector<test::TestImage> images;
  std::vector<Histogram> expected;
};

// `count` different frames (each its own seed), with their reference histograms.
Frames make_frames(PixelFormat format, std::uint32_t w, std::uint32_t h, int count,
                   const HistogramOptions& options = {}, std::size_t pad = 0) {
  Frames f;
  for (int i = 0; i < count; ++i) {
    f.images.push_back(test::make_image(format, w, h,
                                        i % 3 == 2 ? test::Content::Flat : test::Content::Random,
                                        static_cast<std::uint32_t>(i + 1), pad));
    f.expected.push_back(cpu::count_reference(f.images.back().view, options));
  }
  return f;
}

// Pushes every frame, collects what push and finish return, and checks that
// each frame's histogram came back once, in order, with at most `in_flight` pending.
void expect_in_order(FrameStream& stream, const Frames& f, bool written_in_place) {
  std::vector<Histogram> got;
  for (const test::TestImage& image : f.images) {
    std::optional<Histogram> h;
    if (written_in_place) {
      const ImageView& v = image.view;
      h = stream.push([&](std::byte* pixels, std::size_t stride) {
        for (std::uint32_t y = 0; y < v.height; ++y) {
          std::memcpy(pixels + y * stride, v.row(y), std::size_t{v.width} * pixel_bytes(v.format));
        }
      });
    } else {
      h = stream.push(image.view);
    }
    if (h) got.push_back(*h);
    EXPECT_LE(stream.pending(), stream.in_flight());
  }
  for (Histogram& h : stream.finish()) got.push_back(std::move(h));
  EXPECT_EQ(stream.pending(), 0U);
  ASSERT_EQ(got.size(), f.expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(test::same_histograms(got[i], f.expected[i])) << "frame " << i;
  }
}

TEST(FrameStream, GpuSlotsReturnEveryFrameInOrder) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr) << "no Vulkan device: GPU strategies must be tested";
  RunOptions gpu;
  gpu.strategy = Strategy::Gpu;
  for (const PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::U16},
                                   PixelFormat{ChannelLayout::Grey, SampleType::F32}}) {
    const HistogramOptions options{format.sample == SampleType::U16 ? 4096U : 256U};
    const Frames f = make_frames(format, 67, 23, 7, options, 8);
    // 7 frames: with 3 per submission the last submission holds one.
    for (const StreamOptions so : {StreamOptions{1, 1}, StreamOptions{3, 1}, StreamOptions{2, 3}}) {
      for (const bool in_place : {false, true}) {
        FrameStream stream(context, 67, 23, format, options, gpu, so);
        EXPECT_EQ(stream.in_flight(), so.in_flight * so.frames_per_submit);
        SCOPED_TRACE(to_string(format) + " in flight " + std::to_string(so.in_flight) + " x " +
                     std::to_string(so.frames_per_submit) +
                     (in_place ? " written in place" : " copied"));
        expect_in_order(stream, f, in_place);
      }
    }
  }
}

// 65536 bins: ranges of bins, counted from each frame's own pixels (the one
// buffer of planes a single count uses could not serve frames in flight).
TEST(FrameStream, RangesOfBinsWithFramesInFlight) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr) << "no Vulkan device: GPU strategies must be tested";
  RunOptions gpu;
  gpu.strategy = Strategy::Gpu;
  const PixelFormat format{ChannelLayout::RGBA, SampleType::U16};
  const HistogramOptions options{65536};
  const Frames f = make_frames(format, 61, 19, 5, options);
  for (const StreamOptions so : {StreamOptions{3, 1}, StreamOptions{2, 2}}) {
    for (const bool in_place : {false, true}) {
      FrameStream stream(context, 61, 19, format, options, gpu, so);
      SCOPED_TRACE("in flight " + std::to_string(so.in_flight) + " x " +
                   std::to_string(so.frames_per_submit) +
                   (in_place ? " written in place" : " copied"));
      expect_in_order(stream, f, in_place);
    }
  }
}

TEST(FrameStream, OtherStrategiesCountEachFrameWhenPushed) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  const PixelFormat format{ChannelLayout::RGB, SampleType::U16};
  const Frames f = make_frames(format, 45, 31, 4);
  for (const Strategy strategy : {Strategy::Cpu, Strategy::CpuReference, Strategy::GpuAtomic}) {
    RunOptions run;
    run.strategy = strategy;
    FrameStream stream(context, 45, 31, format, {}, run, {4, 2});
    EXPECT_EQ(stream.in_flight(), 1U) << to_string(strategy);
    for (std::size_t i = 0; i < f.images.size(); ++i) {
      const std::optional<Histogram> h = stream.push(f.images[i].view);
      ASSERT_TRUE(h.has_value()) << to_string(strategy);
      EXPECT_TRUE(test::same_histograms(*h, f.expected[i])) << to_string(strategy) << " " << i;
    }
    EXPECT_TRUE(stream.finish().empty());
  }
  // A CPU-only context streams with the CPU, also for frames written in place.
  const Context cpu = Context::open("cpu");
  FrameStream stream(cpu, 45, 31, format);
  expect_in_order(stream, f, true);
  try {
    (void)stream.push(FrameWriter{});
    ADD_FAILURE() << "an empty FrameWriter was called";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  }
}

// A stream counts on its context's device wherever the Context object is moved
// to; a moved-from Context, FrameStream or Histogram says so or is empty,
// rather than reaching for what it no longer holds.
TEST(FrameStream, MovedObjectsAreSafe) {
  const PixelFormat format{ChannelLayout::RGB, SampleType::U8};
  const Frames f = make_frames(format, 20, 12, 3);
  Context cpu = Context::open("cpu");
  RunOptions run;
  run.strategy = Strategy::Cpu;
  FrameStream stream(cpu, 20, 12, format, {}, run);
  const Context holder = std::move(cpu);
  const std::optional<Histogram> first = stream.push(f.images[0].view);
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(test::same_histograms(*first, f.expected[0]));
  // NOLINTBEGIN(bugprone-use-after-move): what a moved-from object does is the test
  EXPECT_EQ(cpu.device(), nullptr);
  EXPECT_FALSE(cpu.hardware());
  try {
    (void)cpu.compute(f.images[0].view);
    ADD_FAILURE() << "a moved-from Context counted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("moved from"), std::string::npos) << e.what();
  }
  FrameStream taken = std::move(stream);
  EXPECT_EQ(stream.pending(), 0U);
  EXPECT_THROW((void)stream.push(f.images[1].view), Error);
  EXPECT_THROW((void)stream.finish(), Error);
  EXPECT_TRUE(taken.push(f.images[1].view).has_value());
  Histogram h = *first;
  const Histogram g = std::move(h);
  EXPECT_EQ(h.bins(), 0U);
  EXPECT_FALSE(h.colour());
  EXPECT_TRUE(h.counts(Channel::Luminance).empty());
  EXPECT_EQ(g, *first);
  // NOLINTEND(bugprone-use-after-move)
}

// A stream shares its context's device: it keeps counting, exact, after the
// Context it was opened on is destroyed or assigned another device, and is
// destroyed cleanly after them (under AddressSanitizer, no use after free).
TEST(FrameStream, OutlivesItsContext) {
  const PixelFormat format{ChannelLayout::RGBA, SampleType::U8};
  const Frames f = make_frames(format, 33, 9, 4);
  RunOptions gpu;
  gpu.strategy = Strategy::Gpu;
  std::optional<Context> context(Context::open("auto"));
  ASSERT_NE(context->device(), nullptr);
  std::optional<FrameStream> stream(std::in_place, *context, 33, 9, format, HistogramOptions{}, gpu,
                                    StreamOptions{2, 1});
  std::vector<Histogram> got;
  const auto keep = [&](std::optional<Histogram> h) {
    if (h) got.push_back(std::move(*h));
  };
  keep(stream->push(f.images[0].view));
  keep(stream->push(f.images[1].view));  // both in flight on the device
  *context = Context::open("cpu");       // the stream's device is no longer the context's
  keep(stream->push(f.images[2].view));
  context.reset();
  keep(stream->push(f.images[3].view));
  for (Histogram& h : stream->finish()) got.push_back(std::move(h));
  ASSERT_EQ(got.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(test::same_histograms(got[i], f.expected[i])) << "frame " << i;
  }
  keep(stream->push(f.images[0].view));  // left in flight when the stream goes
  stream.reset();
}

// A writer that throws leaves its frame uncounted and loses no histogram:
// the three good frames still come back, in order, whether the failure
// comes when a slot must first be freed or in the middle of a submission.
TEST(FrameStream, FailedWriteLosesNoHistogram) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  RunOptions gpu;
  gpu.strategy = Strategy::Gpu;
  const PixelFormat format{ChannelLayout::RGBA, SampleType::U8};
  const Frames f = make_frames(format, 33, 9, 3);
  for (const StreamOptions so : {StreamOptions{2, 1}, StreamOptions{1, 2}, StreamOptions{1, 3}}) {
    SCOPED_TRACE(std::to_string(so.in_flight) + " x " + std::to_string(so.frames_per_submit));
    FrameStream stream(context, 33, 9, format, {}, gpu, so);
    std::vector<Histogram> got;
    const auto keep = [&](std::optional<Histogram> h) {
      if (h) got.push_back(std::move(*h));
    };
    keep(stream.push(f.images[0].view));
    keep(stream.push(f.images[1].view));
    EXPECT_THROW(stream.push([](std::byte*, std::size_t) { throw std::runtime_error("decoder"); }),
                 std::runtime_error);
    EXPECT_EQ(stream.pending() + got.size(), 2U);
    keep(stream.push(f.images[2].view));
    for (Histogram& h : stream.finish()) got.push_back(std::move(h));
    ASSERT_EQ(got.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_TRUE(test::same_histograms(got[i], f.expected[i])) << "frame " << i;
    }
  }
}

TEST(FrameStream, BadShapesAndOptionsAreRejected) {
  const Context& context = test::gpu_context();
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const auto kind_of = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Device;  // nothing thrown: never what the checks below expect
  };
  EXPECT_EQ(kind_of([&] { FrameStream(context, 0, 4, rgba8); }), ErrorKind::InvalidArgument);
  for (const StreamOptions so :
       {StreamOptions{0, 1}, StreamOptions{1, 0}, StreamOptions{65, 1}, StreamOptions{1, 65}}) {
    EXPECT_EQ(kind_of([&] { FrameStream(context, 4, 4, rgba8, {}, {}, so); }),
              ErrorKind::InvalidArgument);
  }
  EXPECT_EQ(kind_of([&] { FrameStream(context, 4, 4, rgba8, {0}); }), ErrorKind::InvalidArgument);
  // Formats no enumerator names (a decoder's channel count of 2 cast to a
  // layout), on every strategy: refused, not counted as another format from
  // slots sized for this one.
  for (const Strategy strategy : {Strategy::Cpu, Strategy::Gpu}) {
    RunOptions run;
    run.strategy = strategy;
    for (const PixelFormat bad : {PixelFormat{static_cast<ChannelLayout>(2), SampleType::U8},
                                  PixelFormat{ChannelLayout::RGB, static_cast<SampleType>(9)}}) {
      EXPECT_EQ(kind_of([&] { FrameStream(context, 16, 16, bad, {}, run); }),
                ErrorKind::InvalidArgument);
    }
  }
  RunOptions gpu;
  gpu.strategy = Strategy::Gpu;
  const Context cpu = Context::open("cpu");
  EXPECT_EQ(kind_of([&] { FrameStream(cpu, 4, 4, rgba8, {}, gpu); }), ErrorKind::InvalidArgument);
  // A frame of another size or format than the stream's.
  FrameStream stream(context, 16, 8, rgba8, {}, gpu);
  const test::TestImage wide = test::make_image(rgba8, 17, 8, test::Content::Random);
  const test::TestImage rgb =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 16, 8, test::Content::Random);
  EXPECT_EQ(kind_of([&] { (void)stream.push(wide.view); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(kind_of([&] { (void)stream.push(rgb.view); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(stream.pending(), 0U);
}

}  // namespace
}  // namespace gpuhist
