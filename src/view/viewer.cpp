#include "gpuhist/viewer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "engine/window_context.hpp"
#include "gpuhist/error.hpp"
#include "render/overlay_renderer.hpp"
#include "view/adjustment_cycle.hpp"
#include "view/display_frame.hpp"
#include "view/frame_source.hpp"
#include "view/present_loop.hpp"
#include "view/swapchain.hpp"
#include "view/window.hpp"
#include "vulkan/device.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace gpuhist {
namespace {

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

// What the keys do: the table the loop reads and the help text is made from.
enum class Action : std::uint8_t { Pause, Channels, Scale, Adjustment, Quit };
struct KeyBinding {
  std::array<int, 2> keys;  // GLFW key codes; 0: none
  const char* label;
  Action action;
};
constexpr std::array<KeyBinding, 5> kKeys = {{
    {{GLFW_KEY_SPACE, 0}, "space", Action::Pause},
    {{GLFW_KEY_C, 0}, "c", Action::Channels},
    {{GLFW_KEY_S, 0}, "s", Action::Scale},
    {{GLFW_KEY_A, 0}, "a", Action::Adjustment},
    {{GLFW_KEY_Q, GLFW_KEY_ESCAPE}, "q or Esc", Action::Quit},
}};

std::string action_help(Action action) {
  switch (action) {
    case Action::Pause:
      return "pause/play";
    case Action::Channels:
      return "cycle channels";
    case Action::Scale:
      return "cycle scale";
    case Action::Adjustment: {
      std::string help = "cycle adjustments (none";
      for (const AdjustmentInfo& row : kAdjustments) {
        if (!row.in_viewer) continue;
        help += row.needs_reference ? ", and " + std::string(row.name) + " with a reference picture"
                                    : ", " + std::string(row.name);
      }
      return help + ")";
    }
    case Action::Quit:
      return "quit";
  }
  return {};
}

std::optional<Action> action_of(int key) {
  for (const KeyBinding& binding : kKeys) {
    if (std::find(binding.keys.begin(), binding.keys.end(), key) != binding.keys.end()) {
      return binding.action;
    }
  }
  return std::nullopt;
}

using Clock = std::chrono::steady_clock;
double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

}  // namespace

std::string viewer_keys() {
  std::string keys;
  for (const KeyBinding& binding : kKeys) {
    if (!keys.empty()) keys += ", ";
    keys += std::string(binding.label) + ": " + action_help(binding.action);
  }
  return keys;
}

std::int64_t run_viewer(const std::filesystem::path& path, const ViewerOptions& options) {
  validate(options.histogram);
  // Before any file is read or window opened.
  if (options.device == "cpu") {
    throw Error(ErrorKind::InvalidArgument,
                "the viewer draws with Vulkan: it cannot run on the CPU device");
  }
  if (options.adjust_at_start && info(options.adjustment.kind).needs_reference &&
      !options.reference) {
    throw Error(ErrorKind::InvalidArgument, "matching needs a reference picture");
  }
  const auto status = [&](const std::string& line) {
    if (options.on_status) options.on_status(line);
  };

  view::FrameSource source(path, options.load_still, options.on_damage);
  // The stream's errors said as the viewer closes, however it closes.
  struct SayErrors {
    const view::FrameSource& source;
    const ViewerOptions& options;
    ~SayErrors() {
      const VideoReader* reader = source.reader();
      if (reader == nullptr || reader->errors() == 0 || !options.on_stream_errors) return;
      try {
        options.on_stream_errors(reader->errors(), reader->first_error(), reader->error_hint());
      } catch (...) {  // a destructor does not throw
      }
    }
  } say_errors{source, options};
  // The pixels' shape as players show it (an anamorphic clip's pixels are
  // wider or narrower than square), of the frames as turned upright (the
  // reader turns it with them); one past 1:256 or 256:1, or of terms over
  // 65535 once reduced, is taken as square.
  PixelAspect aspect{1, 1};
  if (const VideoReader* reader = source.reader(); reader != nullptr) {
    PixelAspect declared = reader->pixel_aspect();
    if (declared.num != 0 && declared.den != 0) {
      const std::uint32_t common = std::gcd(declared.num, declared.den);
      declared = {declared.num / common, declared.den / common};
      const bool sane = declared.num <= 65535 && declared.den <= 65535 &&
                        declared.num <= 256ULL * declared.den &&
                        declared.den <= 256ULL * declared.num;
      if (sane) aspect = declared;
    }
  }
  // No window for a stream of which no frame decodes: its errors say why, in
  // one line as the viewer closes; with none, this does.
  if (!source.has_picture()) {
    const VideoReader* reader = source.reader();
    if (reader == nullptr || reader->errors() == 0) {
      throw Error(ErrorKind::Input, path.string() + ": no frame could be decoded");
    }
    return 0;
  }
  std::uint32_t width = 0, height = 0;
  const auto shown_width = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      1, (std::uint64_t{source.width()} * aspect.num + aspect.den / 2) / aspect.den));
  initial_size(options, shown_width, source.height(), width, height);
  view::Window window(width, height, "gpuhist: " + path.filename().string(),
                      options.on_display_lost);
  const Context context = ContextAccess::open_for_window(
      options.device, view::Window::required_extensions(),
      [&](VkInstance instance) { return window.create_surface(instance); });
  const vk::Device& device = ContextAccess::device(context);
  const VkSurfaceKHR surface = ContextAccess::surface(context);
  status("drawing on " + device.info().name);

  // Counted on the GPU unless a strategy is given (the picture is there to be drawn).
  RunOptions run = options.run;
  if (!run.strategy) run.strategy = Strategy::Gpu;
  view::AdjustmentCycle adjustments(context, run, options.histogram, options.adjustment,
                                    options.reference, options.adjust_at_start);
  const VkSurfaceFormatKHR format = view::choose_surface_format(device.physical(), surface);
  render::OverlayRenderer overlay(device, format.format, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  view::Swapchain swapchain(device, surface, format, overlay.render_pass());
  view::PresentLoop presenter(device, swapchain);

  Image shown;  // RGB8 or RGB16: a video frame as decoded, a still converted once
  Histogram histogram;
  OverlayStyle style = options.style;
  std::int64_t presented = 0;  // pictures drawn at least once; redraws are not counted
  bool fresh = false;          // the picture in `shown` has not been drawn yet
  bool dirty = true;           // something changed since the last frame drawn
  std::uint32_t drawn_w = 0, drawn_h = 0;
  // How the viewer ends: the frames skipped to keep time said, the pictures shown returned.
  const auto done = [&] {
    if (const std::int64_t skipped = source.skipped(); skipped > 0) {
      status(std::to_string(skipped) + (skipped == 1 ? " frame" : " frames") +
             " skipped to keep the video's time (drawing or decoding fell behind)");
    }
    return presented;
  };

  while (!window.should_close()) {
    for (int key : window.take_keys()) {
      const std::optional<Action> action = action_of(key);
      if (!action) continue;
      switch (*action) {
        case Action::Quit:
          return done();
        case Action::Pause:
          if (!source.toggle_pause(now_s())) continue;  // a still picture does not pause
          status(source.paused() ? "paused" : "playing");
          break;
        case Action::Channels: {
          constexpr std::array<std::uint32_t, 5> kCycle = {
              kDrawRed | kDrawGreen | kDrawBlue, kDrawRed, kDrawGreen, kDrawBlue,
              kDrawRed | kDrawGreen | kDrawBlue | kDrawLuminance};
          const auto* at = std::find(kCycle.begin(), kCycle.end(), style.left_channels);
          style.left_channels =
              at == kCycle.end() || at + 1 == kCycle.end() ? kCycle[0] : *(at + 1);
          status(std::string("channels: ") + channels_name(style.left_channels));
          break;
        }
        case Action::Scale:
          style.scale = style.scale == ScaleMode::Clip  ? ScaleMode::Max
                        : style.scale == ScaleMode::Max ? ScaleMode::Log
                                                        : ScaleMode::Clip;
          status("scale: " + std::string(to_string(style.scale)));
          break;
        case Action::Adjustment: {
          const std::optional<AdjustKind> kind = adjustments.next();
          status("adjustment: " + std::string(kind ? to_string(*kind) : "none"));
          if (shown.width != 0) adjustments.adjust(shown);  // once a picture is shown
          break;
        }
      }
      dirty = true;
    }

    // The next picture, once its time has come.
    bool ended = false;
    if (std::optional<Image> picture = source.next(now_s(), ended)) {
      histogram = context.compute(picture->view(), options.histogram, run);
      shown = source.is_video() ? std::move(*picture) : display_frame(picture->view());
      adjustments.adjust(shown);
      fresh = true;
      dirty = true;
    }
    if (ended) {
      status("end of video");
      if (options.exit_at_end) return done();
    }

    std::uint32_t fb_w = 0, fb_h = 0;
    window.framebuffer_size(fb_w, fb_h);
    if (shown.width == 0 || fb_w < 2 || fb_h < 2) {
      window.poll(0.005);  // minimised, or the first frame is still decoding
      continue;
    }
    if (dirty || fb_w != drawn_w || fb_h != drawn_h) {
      const Image* adjusted = adjustments.picture();
      if (presenter.draw(fb_w, fb_h,
                         [&](VkCommandBuffer cmd, VkFramebuffer target, VkExtent2D extent) {
                           overlay.set_frame(adjusted ? adjusted->view() : shown.view(),
                                             adjusted ? adjustments.histogram() : histogram,
                                             extent.width, extent.height, aspect.num, aspect.den);
                           overlay.record(cmd, target, style);
                         })) {
        if (fresh) ++presented;
        fresh = false;
        dirty = false;
        drawn_w = fb_w;
        drawn_h = fb_h;
      }
    }
    // Playback polls; a still picture or a paused video waits for events.
    window.poll(source.playing() ? 0.001 : 0.05);
  }
  return done();
}

}  // namespace gpuhist
