// What a Context owns, for the parts of the library built on it.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "adjust/gpu_apply.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/strategy.hpp"
#include "render/gpu_renderer.hpp"
#include "render/overlay_renderer.hpp"
#include "vulkan/device.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist {

// A window's surface, destroyed before the instance.
struct OwnedSurface {
  VkInstance instance = VK_NULL_HANDLE;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  OwnedSurface() = default;
  OwnedSurface(const OwnedSurface&) = delete;
  OwnedSurface& operator=(const OwnedSurface&) = delete;
  OwnedSurface(OwnedSurface&&) = delete;
  OwnedSurface& operator=(OwnedSurface&&) = delete;
  ~OwnedSurface() {
    if (surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance, surface, nullptr);
  }
};

// A strategy and chunk shape that name one (an enum cast from a number may
// not): Error(InvalidArgument) otherwise. For Context and FrameStream alike.
inline void validate(const RunOptions& run) {
  if (run.strategy &&
      static_cast<std::uint32_t>(*run.strategy) > static_cast<std::uint32_t>(Strategy::Gpu)) {
    throw Error(ErrorKind::InvalidArgument, "unknown strategy");
  }
  if (static_cast<std::uint32_t>(run.chunk) > static_cast<std::uint32_t>(ChunkShape::Tile16x16)) {
    throw Error(ErrorKind::InvalidArgument, "unknown chunk shape");
  }
}

// Members in destruction order: the counter, then the device, the window's
// surface (for a context opened for a window), then the instance.
struct Context::Impl {
  // "auto" on a machine with no GPU device node: the software device (and the
  // Vulkan instance) is opened only when something first needs it, since the
  // CPU strategy counts faster than a software device and needs neither.
  bool deferred = false;
  std::once_flag deferred_open;
  std::optional<vk::Instance> instance;
  OwnedSurface surface;
  std::unique_ptr<vk::Device> device;
  std::unique_ptr<count::GpuCounter> counter;
  std::unique_ptr<render::GpuRenderer> renderer;     // built on first use
  std::unique_ptr<render::OverlayRenderer> overlay;  // built on first use
  std::unique_ptr<adjust::GpuAdjuster> adjuster;     // built on first use
  mutable std::mutex mutex;  // one call at a time owns the queue and the reused buffers

  // The device for the GPU renderers and the table applier; throws
  // Error(InvalidArgument) naming `what` without one.
  const vk::Device& drawing_device(const char* what = "the GPU renderer") {
    open_deferred();
    if (!device) {
      throw Error(ErrorKind::InvalidArgument,
                  std::string(what) + " needs a Vulkan device, but none is in use");
    }
    return *device;
  }

  // Opens the Vulkan device (or finds there is none) as open() does, once;
  // for "auto" on a machine without a GPU device node, open() defers it.
  void open(std::string_view spec);
  void open_deferred() {
    if (deferred) std::call_once(deferred_open, [this] { open("auto"); });
  }

  // Counts as Context::compute does; the caller holds `mutex` for a GPU strategy.
  Histogram count(const ImageView& image, const HistogramOptions& options, Strategy strategy,
                  const RunOptions& run) {
    if (strategy == Strategy::CpuReference) return cpu::count_reference(image, options);
    if (strategy == Strategy::Cpu) {
      return cpu::count_parallel(image, options, run.threads, run.poll);
    }
    return counter_for(strategy).count(image, options, strategy, run.chunk);
  }

  // Counts as Context::compute does, taking `mutex` for a GPU strategy (the
  // CPU ones need no device). Also what a FrameStream counts with: this
  // object stays where it is when its Context is moved.
  Histogram compute(const ImageView& image, const HistogramOptions& options, Strategy strategy,
                    const RunOptions& run) {
    if (strategy == Strategy::CpuReference || strategy == Strategy::Cpu) {
      return count(image, options, strategy, run);
    }
    (void)counter_for(strategy);  // fails before waiting for the lock without a device
    std::lock_guard lock(mutex);
    return count(image, options, strategy, run);
  }

  // The counter for a GPU strategy; throws Error(InvalidArgument) without a device.
  count::GpuCounter& counter_for(Strategy strategy) {
    open_deferred();
    if (!counter) {
      throw Error(ErrorKind::InvalidArgument,
                  "strategy " + std::string(to_string(strategy)) +
                      " needs a Vulkan device, but none is in use (none was found, or the device "
                      "chosen is the CPU)");
    }
    return *counter;
  }
};

}  // namespace gpuhist
