#include "gpuhist/viewer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"
#include "render/overlay_renderer.hpp"
#include "view/display_frame.hpp"
#include "view/frame_adjuster.hpp"
#include "view/present_loop.hpp"
#include "view/swapchain.hpp"
#include "view/window.hpp"
#include "vulkan/device.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/gpu_counter.hpp"
#include "vulkan/instance.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace gpuhist {
namespace {

using Clock = std::chrono::steady_clock;

// Files with an extension of an image format OpenImageIO reads are shown as
// still pictures, except GIFs (which may be animated: FFmpeg plays them);
// anything else is opened as a video.
bool is_still(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext != ".gif" && has_image_extension(path, FormatSet::All);
}

// The window's first size: the picture's, scaled down to fit 1600 x 900.
void initial_size(const ViewerOptions& options, std::uint32_t w, std::uint32_t h,
                  std::uint32_t& width, std::uint32_t& height) {
  if (options.width != 0 && options.height != 0) {
    width = options.width;
    height = options.height;
    return;
  }
  const double fit = std::min({1.0, 1600.0 / w, 900.0 / h});
  width = std::max(2U, static_cast<std::uint32_t>(w * fit));
  height = std::max(2U, static_cast<std::uint32_t>(h * fit));
}

// Destroys the window's surface before the instance.
class Surface {
 public:
  Surface(VkInstance instance, VkSurfaceKHR surface) : instance_(instance), surface_(surface) {}
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;
  Surface(Surface&&) = delete;
  Surface& operator=(Surface&&) = delete;
  ~Surface() { vkDestroySurfaceKHR(instance_, surface_, nullptr); }
  [[nodiscard]] VkSurfaceKHR get() const noexcept { return surface_; }

 private:
  VkInstance instance_;
  VkSurfaceKHR surface_;
};

// The device `spec` names among those that can draw to `surface`.
std::unique_ptr<vk::Device> open_presenting_device(const vk::Instance& instance,
                                                   VkSurfaceKHR surface, std::string_view spec) {
  vk::DeviceRequest request;
  request.extensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  request.present_to = surface;
  std::unique_ptr<vk::Device> device = vk::open_device(instance, spec, request);
  if (!device) throw Error(ErrorKind::Device, "no Vulkan device can draw to the window");
  return device;
}

const char* channels_name(std::uint32_t channels) {
  switch (channels) {
    case kDrawRed | kDrawGreen | kDrawBlue:
      return "RGB";
    case kDrawRed:
      return "red";
    case kDrawGreen:
      return "green";
    case kDrawBlue:
      return "blue";
    default:
      return "RGB and luminance";
  }
}

}  // namespace

std::int64_t run_viewer(const std::filesystem::path& path, const ViewerOptions& options) {
  validate(options.histogram);
  // Before any file is read or window opened.
  if (options.device == "cpu") {
    throw Error(ErrorKind::InvalidArgument,
                "the viewer draws with Vulkan: --device cpu is not possible");
  }
  if (options.adjust_at_start && options.adjustment.kind == AdjustKind::Match &&
      !options.reference) {
    throw Error(ErrorKind::InvalidArgument, "matching needs a reference picture");
  }
  const auto status = [&](const std::string& line) {
    if (options.on_status) options.on_status(line);
  };

  // The source: one still picture, or a video decoded ahead on its own thread.
  std::optional<Image> still;
  std::unique_ptr<VideoReader> reader;
  std::uint32_t source_w = 0, source_h = 0;
  if (is_still(path)) {
    still = options.load_still ? options.load_still(path) : load_image(path);
    source_w = still->width;
    source_h = still->height;
  } else {
    reader = std::make_unique<VideoReader>(path);
    source_w = reader->width();
    source_h = reader->height();
  }

  std::uint32_t width = 0, height = 0;
  initial_size(options, source_w, source_h, width, height);
  view::Window window(width, height, "gpuhist: " + path.filename().string());
  const std::vector<const char*> extensions = view::Window::required_extensions();
  std::optional<vk::Instance> instance = vk::Instance::create(extensions);
  if (!instance) throw Error(ErrorKind::Device, "Vulkan is not available on this machine");
  const Surface surface(instance->get(), window.create_surface(instance->get()));
  const std::unique_ptr<vk::Device> device =
      open_presenting_device(*instance, surface.get(), options.device);
  status("drawing on " + device->info().name);

  const Strategy strategy = options.run.strategy.value_or(Strategy::Gpu);
  vk::GpuCounter counter(*device);
  const auto count_with = [&](const ImageView& image, const HistogramOptions& histogram) {
    if (strategy == Strategy::CpuReference) return cpu::count_reference(image, histogram);
    if (strategy == Strategy::Cpu) return cpu::count_parallel(image, histogram);
    return counter.count(image, histogram, strategy, options.run.chunk);
  };
  const auto count = [&](const ImageView& image) { return count_with(image, options.histogram); };
  view::FrameAdjuster adjuster(*device, count_with);

  const VkSurfaceFormatKHR format = view::choose_surface_format(device->physical(), surface.get());
  render::OverlayRenderer overlay(*device, format.format, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  view::Swapchain swapchain(*device, surface.get(), format, overlay.render_pass());
  view::PresentLoop presenter(*device, swapchain);

  std::unique_ptr<DecodeAhead> frames;
  if (reader) frames = std::make_unique<DecodeAhead>(*reader, options.on_damage);
  Image shown;  // RGB8 or RGB16: a video frame as decoded, a still converted once
  Histogram histogram;
  // The shown picture adjusted (`a`), with its own histogram.
  std::optional<Adjustment> adjustment;
  if (options.adjust_at_start) adjustment = options.adjustment;
  std::optional<Image> adjusted;
  Histogram adjusted_histogram;
  // The reference's histogram for each bit depth shown (one bin per value).
  std::map<std::uint32_t, Histogram> references;
  const auto readjust = [&] {
    adjusted.reset();
    if (!adjustment) return;
    if (adjustment->kind == AdjustKind::Match) {
      const HistogramOptions tone = tone_options(shown.format, adjustment->luma);
      auto [it, added] = references.try_emplace(tone.bins);
      if (added) it->second = count_with(options.reference->view(), tone);
      adjustment->reference = &it->second;
    }
    adjusted = adjuster.adjust(shown, *adjustment);
    adjusted_histogram = count(adjusted->view());
  };
  if (still) {
    histogram = count(still->view());
    shown = display_frame(still->view());
    readjust();
  }
  OverlayStyle style = options.style;
  bool paused = false, ended = !frames;
  double clock_origin = 0;  // steady seconds at which video time 0 is shown
  bool have_frame = static_cast<bool>(still);
  std::optional<VideoFrame> pending;  // decoded, waiting for its time
  std::int64_t presented = 0;
  bool dirty = true;  // something changed since the last frame drawn
  std::uint32_t drawn_w = 0, drawn_h = 0;
  const auto now_s = [] {
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  };

  while (!window.should_close()) {
    for (int key : window.take_keys()) {
      if (key == GLFW_KEY_Q || key == GLFW_KEY_ESCAPE) return presented;
      if (key == GLFW_KEY_SPACE && frames) {
        paused = !paused;
        if (!paused && pending) clock_origin = now_s() - pending->time;
        status(paused ? "paused" : "playing");
        dirty = true;
      } else if (key == GLFW_KEY_C) {
        constexpr std::array<std::uint32_t, 5> kCycle = {
            kDrawRed | kDrawGreen | kDrawBlue, kDrawRed, kDrawGreen, kDrawBlue,
            kDrawRed | kDrawGreen | kDrawBlue | kDrawLuminance};
        const auto* at = std::find(kCycle.begin(), kCycle.end(), style.left_channels);
        style.left_channels = at == kCycle.end() || at + 1 == kCycle.end() ? kCycle[0] : *(at + 1);
        status(std::string("channels: ") + channels_name(style.left_channels));
        dirty = true;
      } else if (key == GLFW_KEY_S) {
        style.scale = style.scale == ScaleMode::Seed  ? ScaleMode::Max
                      : style.scale == ScaleMode::Max ? ScaleMode::Log
                                                      : ScaleMode::Seed;
        status("scale: " + std::string(to_string(style.scale)));
        dirty = true;
      } else if (key == GLFW_KEY_A) {
        const std::optional<AdjustKind> kind =
            view::next_adjustment(adjustment ? std::optional(adjustment->kind) : std::nullopt,
                                  options.reference.has_value());
        if (kind) {
          Adjustment next = options.adjustment;
          next.kind = *kind;
          adjustment = next;
        } else {
          adjustment.reset();
        }
        status("adjustment: " + std::string(kind ? to_string(*kind) : "none"));
        if (have_frame) readjust();
        dirty = true;
      }
    }

    // The next video frame, once its time has come.
    if (frames && !paused && !ended) {
      if (!pending) {
        pending = frames->next();
        if (!pending) {
          ended = true;
          status("end of video");
          if (options.exit_at_end) return presented;
        } else if (!have_frame) {
          clock_origin = now_s() - pending->time;
        }
      }
      if (pending && now_s() >= clock_origin + pending->time) {
        histogram = count(pending->image.view());
        shown = std::move(pending->image);  // decoded frames are 8- or 16-bit RGB already
        readjust();
        have_frame = true;
        dirty = true;
        pending.reset();
      }
    }

    std::uint32_t fb_w = 0, fb_h = 0;
    window.framebuffer_size(fb_w, fb_h);
    if (!have_frame || fb_w < 2 || fb_h < 2) {
      window.poll(0.005);  // minimised, or the first frame is still decoding
      continue;
    }
    if (dirty || fb_w != drawn_w || fb_h != drawn_h) {
      if (presenter.draw(fb_w, fb_h,
                         [&](VkCommandBuffer cmd, VkFramebuffer target, VkExtent2D extent) {
                           overlay.set_frame(adjusted ? adjusted->view() : shown.view(),
                                             adjusted ? adjusted_histogram : histogram,
                                             extent.width, extent.height);
                           overlay.record(cmd, target, style);
                         })) {
        ++presented;
        dirty = false;
        drawn_w = fb_w;
        drawn_h = fb_h;
      }
    }
    // Playback polls; a still picture or a paused video waits for events.
    window.poll(frames && !paused && !ended ? 0.001 : 0.05);
  }
  return presented;
}

}  // namespace gpuhist
