// The entry point: a Context owns the chosen device (a Vulkan device, or none
// for the CPU) and computes histograms on it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "gpuhist/adjust.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/device_info.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/strategy.hpp"

namespace gpuhist {

struct Adjustment;  // gpuhist/adjustment.hpp

// How to count: the strategy (default: `gpu` on a hardware GPU, `cpu`
// otherwise), for the chunk strategies the chunk shape, and for `cpu` the
// most threads one count may use (0: every core). A caller whose other
// threads already keep the cores busy, such as a video decoder's, counts on
// its own thread alone with `threads = 1`.
struct RunOptions {
  std::optional<Strategy> strategy{};
  ChunkShape chunk = ChunkShape::Row256x1;
  std::uint32_t threads = 0;
  // Called on the calling thread now and then while the `cpu` strategy
  // counts (about every megapixel): what it throws ends the count and
  // reaches the caller, the count's other threads stopping at their next
  // block of rows. A way to stop a long count (Python's Ctrl-C).
  std::function<void()> poll{};
};

// Owns a Vulkan instance and device (when one is chosen), with the
// FrameStreams opened on it. Reusable, movable, and safe to share between
// threads: its device's work is serialised, and counts on the CPU run at once.
class Context {
 public:
  // Opens a device. `device` is "auto" (a hardware GPU, else the software
  // Vulkan device, else none), "cpu" (no Vulkan; both words in any case), a device index, or a
  // case-insensitive substring of a device name. On a machine with no GPU
  // device node (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), "auto" creates no
  // Vulkan instance until something first needs the software device.
  // "" is "auto". Throws Error(InvalidArgument) for an index or name that
  // matches none of the devices there are, Error(Device) when there are none
  // (no Vulkan driver) or the device cannot be opened.
  static Context open(std::string_view device = "auto");

  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  // A moved-from context holds no device: device() is nullptr, hardware()
  // false, default_strategy() and strategy_for() the CPU's, and every other
  // call throws Error(InvalidArgument) saying so.
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  ~Context();

  // The open Vulkan device; nullptr for a CPU-only context. Opens the
  // software device an "auto" context deferred, and throws Error(Device) as
  // open() does if that fails.
  [[nodiscard]] const DeviceInfo* device() const;
  // Whether the device is a hardware GPU; never opens a deferred device.
  [[nodiscard]] bool hardware() const noexcept;
  // `gpu` on a hardware GPU, `cpu` otherwise.
  [[nodiscard]] Strategy default_strategy() const noexcept;
  // What compute() counts `image` with when RunOptions names no strategy: on
  // a hardware GPU, `gpu` from the size where it is faster than `cpu` from
  // host memory (about 160 KB of pixels on an NVIDIA H200), `cpu` below it
  // and without a hardware GPU.
  [[nodiscard]] Strategy strategy_for(const ImageView& image) const noexcept;

  // Counts the histograms of one image. Throws Error(InvalidArgument) for a
  // bad view or options, or for a GPU strategy on a CPU-only context;
  // Error(Device) when the device fails (out of memory, lost).
  [[nodiscard]] Histogram compute(const ImageView& image, const HistogramOptions& options = {},
                                  const RunOptions& run = {}) const;

  // Draws a histogram with the GPU renderer (identical pixels to draw_cpu).
  // Throws Error(InvalidArgument) for bad options or a CPU-only context,
  // Error(Device) when the device fails.
  [[nodiscard]] Picture draw(const Histogram& histogram, const DrawOptions& options) const;

  // The overlay of `frame` (8- or 16-bit RGB) with `histogram`, width x height,
  // drawn by the GPU: the same bytes as draw_overlay_cpu. Throws like draw().
  [[nodiscard]] Picture draw_overlay(const ImageView& frame, const Histogram& histogram,
                                     std::uint32_t width, std::uint32_t height,
                                     const OverlayStyle& style = {}) const;

  // Applies adjustment tables (gpuhist/adjust.hpp) on the GPU: the same bytes
  // as apply_lut_cpu. Throws Error(InvalidArgument) as that does, or for a
  // CPU-only context; Error(Device) when the device fails.
  void apply_lut(const ImageView& image, const Lut& lut, std::span<std::byte> out) const;

  // CLAHE on the GPU: the same bytes as clahe_cpu. When the image fits one
  // buffer its tiles are counted, given their tables and blended on the device
  // in one submission; otherwise counted one by one with `run`'s strategy and
  // given their tables on the host. Throws Error(InvalidArgument) as that does,
  // for a CPU-only context, or for tables larger than the device's shaders can
  // read; Error(Device) when the device fails.
  void clahe(const ImageView& image, const ClaheOptions& options, std::span<std::byte> out,
             const RunOptions& run = {}) const;

  // adjust_image (gpuhist/adjust_image.hpp) with the tables applied on the GPU.
  // When the image fits one buffer it is uploaded once, counted, given its
  // tables and adjusted on the device in one submission (Otsu's and the
  // triangle thresholds computed on the host from the counts); otherwise
  // counted with `run`'s strategy and given its tables on the host. Returns
  // the threshold used (Threshold only). Throws as adjust_image does.
  std::optional<std::int32_t> adjust(const ImageView& image, const Adjustment& adjustment,
                                     std::span<std::byte> out, const RunOptions& run = {}) const;

  struct Impl;

 private:
  friend class FrameStream;     // shares the context's device and counts under its lock
  friend struct ContextAccess;  // the engine's own parts (src/engine), for the viewer
  explicit Context(std::shared_ptr<Impl> impl);
  [[nodiscard]] Impl& impl() const;  // throws for a moved-from context
  [[nodiscard]] std::shared_ptr<Impl> share() const;  // the same, shared
  // Shared with the FrameStreams opened on it, which keep the device open
  // after the Context is moved, assigned to or destroyed.
  std::shared_ptr<Impl> impl_;
};

}  // namespace gpuhist
