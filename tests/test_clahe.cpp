// CLAHE: the GPU blend against the CPU one, byte for byte, on every integer
// format, tile grid and channel choice; and what it refuses. (Against OpenCV's
// CLAHE: test_opencv.)
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "adjust/gpu_apply.hpp"
#include "cpu/reference.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "support/shared_context.hpp"
#include "support/synthetic_images.hpp"
#include "support/test_device.hpp"

namespace gpuhist {
namespace {

std::vector<std::byte> run_cpu(const ImageView& view, const ClaheOptions& options) {
  std::vector<std::byte> out(view.pixel_count() * pixel_bytes(view.format));
  clahe_cpu(view, options, out);
  return out;
}

TEST(Clahe, GpuEqualsCpuOnEveryIntegerFormat) {
  const Context& context = test::gpu_context();
  ASSERT_NE(context.device(), nullptr);
  std::uint32_t seed = 1;
  for (PixelFormat format : test::integer_formats()) {
    for (const auto& [w, h, pad] :
         {std::tuple{1U, 1U, 0U}, std::tuple{37U, 21U, 4U}, std::tuple{64U, 48U, 0U}}) {
      for (const auto& [tx, ty, clip] :
           {std::tuple{8U, 8U, 2.0}, std::tuple{3U, 5U, 0.0}, std::tuple{1U, 1U, 40.0}}) {
        for (ToneChannels channels : {ToneChannels::Each, ToneChannels::Luminance}) {
          const test::TestImage image =
              test::make_image(format, w, h, test::Content::Gradient, ++seed, pad);
          ClaheOptions options;
          options.tiles_x = tx;
          options.tiles_y = ty;
          options.clip_limit = clip;
          options.channels = channels;
          const std::vector<std::byte> cpu = run_cpu(image.view, options);
          std::vector<std::byte> gpu(cpu.size());
          context.clahe(image.view, options, gpu, RunOptions{Strategy::Gpu});
          EXPECT_EQ(cpu, gpu) << to_string(format) << " " << w << "x" << h << " tiles " << tx << "x"
                              << ty << " clip " << clip;
        }
      }
    }
  }
}

TEST(Clahe, TheMostTilesSplitTheirWorkgroupsOverTwoAxes) {
  // 256x256 tiles: 65536 tile tables, one more than the workgroups a device
  // must take along one axis, so the tables' and the counts' grids use two.
  // Tiles of 2x1 pixels with no reflected border: every tile's table is used.
  const Context& context = test::gpu_context();
  const PixelFormat grey{ChannelLayout::Grey, SampleType::U8};
  const test::TestImage image = test::make_image(grey, 512, 256, test::Content::Random, 6);
  ClaheOptions options;
  options.tiles_x = 256;
  options.tiles_y = 256;
  const std::vector<std::byte> cpu = run_cpu(image.view, options);
  std::vector<std::byte> gpu(cpu.size());
  context.clahe(image.view, options, gpu, RunOptions{Strategy::Gpu});
  EXPECT_EQ(cpu, gpu);
}

TEST(Clahe, FewWorkgroupsPerAxisLoopOverBandsTablesAndWords) {
  // A device taking 4 workgroups per axis: a tile's 6 bands of 3 rows go to 2
  // band groups, 3 each; RGB's 6 tile tables take two rows of the grid (the
  // second part-empty); the blend and the lookups loop over their words. The
  // same bytes as the CPU, for CLAHE and equalisation.
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr);
  adjust::GpuAdjuster adjuster(*device, VkDeviceSize{512} << 20, 4);
  const Context& context = test::gpu_context();
  for (PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U8},
                             PixelFormat{ChannelLayout::Grey, SampleType::U16}}) {
    const test::TestImage image = test::make_image(format, 1100, 32, test::Content::Random, 7);
    for (AdjustKind kind : {AdjustKind::Clahe, AdjustKind::Equalize}) {
      Adjustment a;
      a.kind = kind;
      a.channels = ToneChannels::Each;
      a.tiles_x = 1;
      a.tiles_y = 2;
      const std::size_t bytes = image.view.pixel_count() * pixel_bytes(format);
      std::vector<std::byte> cpu(bytes), gpu(bytes);
      (void)adjust_image(context, image.view, a, cpu, RunOptions{Strategy::Cpu}, false);
      ASSERT_TRUE(adjuster.adjust_on_device(image.view, a, gpu));
      EXPECT_EQ(cpu, gpu) << to_string(format) << " " << to_string(kind);
    }
  }
}

TEST(Clahe, SmallBatchesCountTileByTileAndBlendInBands) {
  // Buffers of 1000 bytes: the image does not fit one, so its tiles are
  // counted one by one and the pixels go through in bands of rows, for CLAHE
  // and for plain tables alike.
  vk::Device* device = test::test_device();
  ASSERT_NE(device, nullptr);
  adjust::GpuAdjuster adjuster(*device, 1000);
  for (PixelFormat format : {PixelFormat{ChannelLayout::RGB, SampleType::U16},
                             PixelFormat{ChannelLayout::Grey, SampleType::U8}}) {
    const test::TestImage image = test::make_image(format, 37, 21, test::Content::Gradient, 4, 2);
    ClaheOptions options;
    options.tiles_x = 4;
    options.tiles_y = 3;
    options.channels = ToneChannels::Each;
    const std::vector<std::byte> cpu = run_cpu(image.view, options);
    std::vector<std::byte> gpu(cpu.size());
    int tiles_counted = 0;
    adjuster.clahe(
        image.view, options,
        [&](const ImageView& tile) {
          ++tiles_counted;
          return cpu::count_reference(tile, tone_options(format));
        },
        gpu);
    EXPECT_EQ(tiles_counted, 12);
    EXPECT_EQ(cpu, gpu) << to_string(format);
    const Lut lut = equalize_lut(cpu::count_reference(image.view, tone_options(format)), format,
                                 ToneChannels::Each);
    std::vector<std::byte> by_cpu(cpu.size()), by_gpu(cpu.size());
    apply_lut_cpu(image.view, lut, by_cpu);
    adjuster.apply(image.view, lut, by_gpu);
    EXPECT_EQ(by_cpu, by_gpu) << to_string(format);
  }
}

TEST(Clahe, EqualisesWithinTiles) {
  // Two halves, dark (values 10..19) and bright (200..209): with a tile per
  // half and no clipping each half spreads over the whole range on its own.
  std::vector<std::uint8_t> pixels(64 * 32);
  for (std::uint32_t y = 0; y < 32; ++y) {
    for (std::uint32_t x = 0; x < 64; ++x) {
      pixels[y * 64 + x] = static_cast<std::uint8_t>((x < 32 ? 10 : 200) + (x + y) % 10);
    }
  }
  const ImageView view =
      ImageView::packed(pixels.data(), 64, 32, {ChannelLayout::Grey, SampleType::U8});
  ClaheOptions options;
  options.tiles_x = 2;
  options.tiles_y = 1;
  options.clip_limit = 0.0;
  const std::vector<std::byte> out = run_cpu(view, options);
  const auto at = [&](std::uint32_t x, std::uint32_t y) {
    return std::to_integer<int>(out[y * 64 + x]);
  };
  // Columns 0..15 take the dark tile's table alone, 48..63 the bright one's.
  // Each tile's lowest value (a tenth of its pixels) goes near 255 / 10, its
  // highest to 255.
  EXPECT_LE(at(0, 0), 30);    // 10, the dark tile's lowest
  EXPECT_GE(at(9, 0), 250);   // 19, its highest
  EXPECT_LE(at(60, 0), 30);   // 200, the bright tile's lowest
  EXPECT_GE(at(63, 6), 250);  // 209, its highest
  // A limit larger than any count clips nothing, however large (1e19 and
  // above once clipped the most).
  for (const double limit : {1e6, 1e19, 1e30, 1e308}) {
    options.clip_limit = limit;
    EXPECT_EQ(run_cpu(view, options), out) << limit;
  }
}

TEST(Clahe, RefusesBadOptionsAndFloatAndNeedsADeviceForTheGpu) {
  const test::TestImage image =
      test::make_image({ChannelLayout::Grey, SampleType::U8}, 8, 8, test::Content::Random, 3);
  std::vector<std::byte> out(64);
  for (const auto& [tx, ty, clip] :
       {std::tuple{0U, 8U, 2.0}, std::tuple{8U, 257U, 2.0}, std::tuple{8U, 8U, -1.0}}) {
    ClaheOptions options;
    options.tiles_x = tx;
    options.tiles_y = ty;
    options.clip_limit = clip;
    EXPECT_THROW(clahe_cpu(image.view, options, out), Error);
  }
  // 16-bit tables of 64x64 tiles would take 12 GiB: refused.
  const test::TestImage deep =
      test::make_image({ChannelLayout::RGB, SampleType::U16}, 64, 64, test::Content::Random, 3);
  std::vector<std::byte> deep_out(64 * 64 * 6);
  ClaheOptions many;
  many.tiles_x = many.tiles_y = 64;
  many.channels = ToneChannels::Each;
  EXPECT_THROW(clahe_cpu(deep.view, many, deep_out), Error);
  many.tiles_x = many.tiles_y = 26;  // 2028 tables: allowed
  EXPECT_NO_THROW(clahe_cpu(deep.view, many, deep_out));
  std::vector<std::byte> small(63);
  EXPECT_THROW(clahe_cpu(image.view, {}, small), Error);
  const test::TestImage hdr =
      test::make_image({ChannelLayout::RGB, SampleType::F32}, 4, 4, test::Content::Random, 3);
  std::vector<std::byte> floats(4 * 4 * 12);
  EXPECT_THROW(clahe_cpu(hdr.view, {}, floats), Error);
  try {
    Context::open("cpu").clahe(image.view, {}, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
  }
}

// A caller's tile counter whose histogram is not the tile's (another bin
// count, luminance alone for each channel's tables, another pixel count) is
// refused, not turned into other tables.
TEST(Clahe, ATileCounterMustCountItsTile) {
  const test::TestImage image =
      test::make_image({ChannelLayout::RGB, SampleType::U8}, 64, 48, test::Content::Random, 5);
  ClaheOptions options;
  options.channels = ToneChannels::Each;
  std::vector<std::byte> expected(64 * 48 * 3), out(expected.size());
  clahe_cpu(image.view, options, expected);
  const Context cpu = Context::open("cpu");
  const auto right = [&](const ImageView& tile) { return cpu.compute(tile); };
  clahe_cpu(image.view, options, out, right);
  EXPECT_EQ(out, expected);
  const std::function<Histogram(const ImageView&)> wrong[] = {
      [](const ImageView&) { return Histogram(); },
      [&](const ImageView& tile) { return cpu.compute(tile, {.bins = 4}); },
      [&](const ImageView& tile) {
        ImageView grey = tile;
        grey.format.layout = ChannelLayout::Grey;  // the tile's bytes, read as grey
        return cpu.compute(grey);
      },
      [&](const ImageView& tile) {
        ImageView half = tile;
        half.height /= 2;
        return cpu.compute(half);
      },
  };
  for (const auto& count : wrong) {
    try {
      clahe_cpu(image.view, options, out, count);
      ADD_FAILURE() << "a wrong tile histogram was used";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("does not fit its tile"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gpuhist
