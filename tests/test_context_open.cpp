// Context::open("auto") on a machine without a GPU device node creates no
// Vulkan instance until the software device is needed; counting on the CPU
// never needs it. Its own program, so that no other test has loaded a driver.
#include <cstdint>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/auto_strategy.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "support/synthetic_images.hpp"
#include "vulkan/device_select.hpp"

namespace gpuhist {
namespace {

// Whether a Vulkan driver (Mesa's are libvulkan_NAME.so) is mapped into this process.
bool driver_loaded() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find("/libvulkan_") != std::string::npos) return true;
  }
  return false;
}

TEST(ContextOpen, AutoWithoutGpuDeviceNodeDefersTheSoftwareDevice) {
  if (vk::gpu_device_node_present()) {
    const Context context = Context::open("auto");
    ASSERT_NE(context.device(), nullptr) << "a GPU device node, but no Vulkan device";
    EXPECT_EQ(context.hardware(), context.device()->hardware());
    GTEST_SKIP() << "this machine has a GPU device node: auto opens its device at once";
  }
  ASSERT_FALSE(driver_loaded());
  const Context context = Context::open("auto");
  EXPECT_FALSE(context.hardware());
  EXPECT_EQ(context.default_strategy(), Strategy::Cpu);
  const test::TestImage image =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 64, 48, test::Content::Random, 7);
  const Histogram counted = context.compute(image.view);
  EXPECT_EQ(counted, Context::open("cpu").compute(image.view, {}, {Strategy::CpuReference}));
  EXPECT_FALSE(driver_loaded()) << "counting on the CPU loaded a Vulkan driver";

  // What needs a device opens the software one, as "auto" always did.
  const DeviceInfo* device = context.device();
  if (device == nullptr) GTEST_SKIP() << "no software Vulkan device on this machine";
  EXPECT_FALSE(device->hardware());
  EXPECT_TRUE(driver_loaded());
  EXPECT_EQ(context.compute(image.view, {}, {Strategy::Gpu}), counted);
  EXPECT_FALSE(context.hardware());
}

// "cpu" and "auto" are words in any case, as device names match in any case.
TEST(ContextOpen, TheWordsCpuAndAutoInAnyCase) {
  EXPECT_EQ(Context::open("CPU").device(), nullptr);
  EXPECT_EQ(Context::open("Cpu").default_strategy(), Strategy::Cpu);
  EXPECT_EQ(Context::open("AUTO").hardware(), Context::open("auto").hardware());
}

// A device name matching none is shown in the message on one line and cut
// short: its NUL as \x00 (it would end what() there), 5000 bytes as 100.
TEST(ContextOpen, AnUnknownNameIsShownOnOneLineAndCut) {
  const std::string name = std::string("no\0such\n", 8) + std::string(5000, 'x');
  try {
    (void)Context::open(name);
    FAIL() << "a device matched";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no Vulkan device matches 'no\\x00such\\x0Axxx"), std::string::npos)
        << what;
    EXPECT_NE(what.find("xxx... (5008 bytes)'"), std::string::npos) << what;
    EXPECT_LT(what.size(), 400U) << what;
  }
}

}  // namespace
}  // namespace gpuhist

namespace gpuhist {
namespace {

// The size from which `auto` counts on a hardware GPU, the same on hosts of
// any number of cores: between the sizes measured on a 16-core host with an
// H200 where the CPU won (128x128 RGBA8) and where the GPU did (256x256);
// never the GPU without a hardware one.
TEST(AutoStrategy, TheCrossoverLiesBetweenTheSizesMeasured) {
  const std::uint64_t sixteen = engine::gpu_crossover_bytes(16);
  EXPECT_EQ(engine::gpu_crossover_bytes(1), sixteen);
  EXPECT_EQ(engine::gpu_crossover_bytes(64), sixteen);
  EXPECT_GT(sixteen, std::uint64_t{128} * 128 * 4);
  EXPECT_LT(sixteen, std::uint64_t{256} * 256 * 4);
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const ImageView tiny{reinterpret_cast<const void*>(64), 16, 16, 16 * 4, rgba8};
  const ImageView vga{reinterpret_cast<const void*>(64), 640, 480, 640 * 4, rgba8};
  const ImageView photo{reinterpret_cast<const void*>(64), 2448, 1505, 2448 * 4, rgba8};
  EXPECT_EQ(engine::auto_strategy(tiny, true, 16), Strategy::Cpu);
  EXPECT_EQ(engine::auto_strategy(vga, true, 16), Strategy::Gpu);
  EXPECT_EQ(engine::auto_strategy(photo, true, 16), Strategy::Gpu);
  EXPECT_EQ(engine::auto_strategy(tiny, true, 2), Strategy::Cpu);
  EXPECT_EQ(engine::auto_strategy(photo, false, 16), Strategy::Cpu);
}

}  // namespace
}  // namespace gpuhist
