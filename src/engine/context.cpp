#include "gpuhist/context.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/cores.hpp"
#include "core/shown_text.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "engine/auto_strategy.hpp"
#include "engine/context_impl.hpp"
#include "gpuhist/error.hpp"
#include "render/gpu_renderer.hpp"
#include "render/overlay_renderer.hpp"
#include "vulkan/device.hpp"
#include "vulkan/device_info.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/instance.hpp"

namespace gpuhist {

Context::Context(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

void Context::Impl::open(std::string_view spec) {
  instance = vk::Instance::create();
  if (!instance) {
    if (spec == "auto" || spec.empty()) return;
    // The machine has no device to offer: not a mistyped name.
    throw Error(ErrorKind::Device, "no Vulkan device matches '" + shown_text(spec) +
                                       "' (Vulkan is not available on this machine)");
  }
  device = vk::open_device(*instance, spec);
  if (device) counter = std::make_unique<count::GpuCounter>(*device);
}

Context Context::open(std::string_view given) {
  // The words "cpu" and "auto" in any case, as device names are matched.
  const auto is = [&](std::string_view word) {
    return std::equal(given.begin(), given.end(), word.begin(), word.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == b;
    });
  };
  const std::string_view device = is("cpu") ? "cpu" : is("auto") ? "auto" : given;
  auto impl = std::make_unique<Impl>();
  if (device == "cpu") return Context(std::move(impl));
  if ((device == "auto" || device.empty()) && !vk::gpu_device_node_present()) {
    impl->deferred = true;
    return Context(std::move(impl));
  }
  impl->open(device);
  return Context(std::move(impl));
}

const DeviceInfo* Context::device() const {
  if (!impl_) return nullptr;
  impl_->open_deferred();
  return impl_->device ? &impl_->device->info() : nullptr;
}

bool Context::hardware() const noexcept {
  // A deferred device is at best a software one: asking needs no Vulkan.
  return impl_ && !impl_->deferred && impl_->device && impl_->device->info().hardware();
}

Strategy Context::default_strategy() const noexcept {
  return hardware() ? Strategy::Gpu : Strategy::Cpu;
}

Strategy Context::strategy_for(const ImageView& image) const noexcept {
  return engine::auto_strategy(image, hardware(), core_count());
}

Context::Impl& Context::impl() const {
  if (!impl_) {
    throw Error(ErrorKind::InvalidArgument,
                "this Context was moved from: it holds no device (use the one it was moved to)");
  }
  return *impl_;
}

std::shared_ptr<Context::Impl> Context::share() const {
  (void)impl();  // throws for a moved-from context
  return impl_;
}

Histogram Context::compute(const ImageView& image, const HistogramOptions& options,
                           const RunOptions& run) const {
  validate(image);
  validate(options);
  validate(run);
  return impl().compute(image, options, run.strategy.value_or(strategy_for(image)), run);
}

Picture Context::draw(const Histogram& histogram, const DrawOptions& options) const {
  validate(options);
  Impl& self = impl();
  const vk::Device& device = self.drawing_device();
  std::lock_guard lock(self.mutex);
  if (!self.renderer) self.renderer = std::make_unique<render::GpuRenderer>(device);
  return self.renderer->draw(histogram, options);
}

Picture Context::draw_overlay(const ImageView& frame, const Histogram& histogram,
                              std::uint32_t width, std::uint32_t height,
                              const OverlayStyle& style) const {
  validate_overlay(frame, width, height);
  Impl& self = impl();
  const vk::Device& device = self.drawing_device();
  std::lock_guard lock(self.mutex);
  if (!self.overlay) {
    self.overlay = std::make_unique<render::OverlayRenderer>(device, VK_FORMAT_R8G8B8A8_UNORM,
                                                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  }
  return self.overlay->draw(frame, histogram, width, height, style);
}

void Context::apply_lut(const ImageView& image, const Lut& lut, std::span<std::byte> out) const {
  validate_lut(image, lut, out.size());
  Impl& self = impl();
  const vk::Device& device = self.drawing_device("applying tables on the GPU");
  std::lock_guard lock(self.mutex);
  if (!self.adjuster) self.adjuster = std::make_unique<adjust::GpuAdjuster>(device);
  self.adjuster->apply(image, lut, out);
}

void Context::clahe(const ImageView& image, const ClaheOptions& options, std::span<std::byte> out,
                    const RunOptions& run) const {
  validate(options, image.format);
  Adjustment clahe;
  clahe.kind = AdjustKind::Clahe;
  clahe.tiles_x = options.tiles_x;
  clahe.tiles_y = options.tiles_y;
  clahe.clip_limit = options.clip_limit;
  clahe.channels = options.channels;
  clahe.luma = options.luma;
  (void)adjust(image, clahe, out, run);
}

std::optional<std::int32_t> Context::adjust(const ImageView& image, const Adjustment& adjustment,
                                            std::span<std::byte> out, const RunOptions& run) const {
  validate(image);
  validate(run);
  Impl& self = impl();
  const vk::Device& device = self.drawing_device("adjusting on the GPU");
  const Strategy strategy = run.strategy.value_or(default_strategy());
  std::lock_guard lock(self.mutex);
  if (!self.adjuster) self.adjuster = std::make_unique<adjust::GpuAdjuster>(device);
  // As compute() counts, the lock already held.
  return self.adjuster->adjust(
      image, adjustment,
      [&](const ImageView& view, const HistogramOptions& options) {
        return self.count(view, options, strategy, run);
      },
      out);
}

}  // namespace gpuhist
