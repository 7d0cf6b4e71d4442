// `gpuhist view`: a live window that plays a video, or shows an image, with the
// overlay of its RGB and luminance histograms, counted and drawn on the GPU
// every frame. Part of the gpuhist::view library (GLFW and a Vulkan swapchain).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist {

struct ViewerOptions {
  std::string device = "auto";  // as Context::open; the device must draw to the window
  std::uint32_t width = 0;      // window size; 0: the picture's, fitted in 1600 x 900
  std::uint32_t height = 0;
  HistogramOptions histogram{};
  RunOptions run;  // strategy: `gpu` unless set (CPU strategies count on the host)
  OverlayStyle style{};
  bool exit_at_end = false;  // close after a video's last frame instead of holding it
  // The parameters of the adjustments the `a` key cycles through (equalize,
  // clahe, autolevel, threshold, then match with a reference, then none); with
  // `adjust_at_start`, the picture is shown adjusted by `adjustment.kind` from
  // the start. `adjustment.reference` is not used.
  Adjustment adjustment{};
  bool adjust_at_start = false;
  // The picture to match to: its histogram counted with one bin per value of
  // the shown picture's bit depth. Match needs one (Error(InvalidArgument)).
  std::optional<Image> reference;
  // Reads a still picture; unset: load_image with its default options.
  std::function<Image(const std::filesystem::path&)> load_still;
  // Damaged video packets (skipped), and one line per change the keys make.
  std::function<void(const std::string&)> on_damage;
  std::function<void(const std::string&)> on_status;
  // Called once as the viewer closes, where the video's demuxer and decoder
  // met errors: how many, the first in FFmpeg's words, and what may explain
  // them (VideoReader's errors(), first_error(), error_hint()).
  std::function<void(std::int64_t, const std::string&, const std::string&)> on_stream_errors;
  // Called where the window system's connection is lost (the X server ended,
  // the window was killed), with the cause: the process cannot go on, and
  // Xlib ends it (status 1) once this returns, so this is the place to say so
  // and to end it with a status of the caller's choice. (A window another
  // program destroyed is thrown as Error(Device).)
  std::function<void(const std::string&)> on_display_lost;
};

// What the keys do, for the help text: "space: pause/play, c: ...".
[[nodiscard]] std::string viewer_keys();

// Shows `path` (a still image, by its extension, or any video FFmpeg reads)
// until the window is closed, q or Esc. Frames play at their own times;
// resizing the window keeps the picture covering it. Returns the pictures shown
// (each counted once, however often it was drawn again).
// Throws Error(Input) for a file that cannot be read, Error(Device) when no
// window or no device that can draw to it is available, Error(InvalidArgument)
// for bad options.
std::int64_t run_viewer(const std::filesystem::path& path, const ViewerOptions& options);

}  // namespace gpuhist
