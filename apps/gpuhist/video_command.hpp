// `gpuhist video IN`: the histograms of every frame of a video, streamed as
// JSON lines or CSV rows.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "adjust_command.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/video_file.hpp"

namespace gpuhist::cli {

struct VideoArgs {
  std::string input;
  std::string format = "jsonl";
  std::string output;
  std::uint32_t bins = 256;
  std::string luma = "709";
  std::string strategy;
  std::string device = "auto";
  bool no_progress = false;
  bool overlay = false;     // -o names an annotated video instead of the rows
  std::string size;         // overlay video size WxH (default: the input's, made even)
  std::string renderer;     // overlay: cpu or gpu (default: gpu on a hardware GPU, else cpu)
  std::string percentiles;  // extra percentiles of every frame, "5,95"
  std::string compare;      // a reference image to compare every frame with
  std::string adjust;       // adjust every frame of the written video (an AdjustKind name)
  AdjustParams adjust_params;
  std::string reference;  // --adjust match: the image whose histogram to match
  std::string apply;      // cpu | gpu: who applies --adjust's tables
};

CLI::App* add_video_command(CLI::App& app, VideoArgs& args);

// What the written video shows of each frame.
struct VideoEdit {
  bool panels = true;                             // the histogram panels over the frame
  std::function<void(VideoFrame& frame)> adjust;  // applied to the frame first; RGB out
};

struct OverlayResult {
  std::int64_t frames = 0;
  std::string codec;
};

// Writes the annotated video of every remaining frame of `reader` to `output`
// (width x height, even), copying the audio of `audio_from` when given: each
// frame adjusted by `edit.adjust` when set, then cover-scaled, with its
// histograms drawn on it when `edit.panels`. Damaged packets go to
// `on_damage`. Throws gpuhist::Error.
OverlayResult write_overlay_video(const Context& context, VideoReader& reader,
                                  const std::filesystem::path& output, std::uint32_t width,
                                  std::uint32_t height, const HistogramOptions& options,
                                  const RunOptions& run, bool gpu_renderer,
                                  const std::function<void(const std::string&)>& on_damage,
                                  const std::filesystem::path& audio_from,
                                  const VideoEdit& edit = {});
int run_video(const VideoArgs& args);

}  // namespace gpuhist::cli
