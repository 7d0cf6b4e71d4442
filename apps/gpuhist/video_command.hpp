// `gpuhist video IN`: the histograms of every frame of a video, streamed as
// JSON lines or CSV rows.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

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
  bool overlay = false;  // -o names an annotated video instead of the rows
  std::string size;      // overlay video size WxH (default: the input's, made even)
};

CLI::App* add_video_command(CLI::App& app, VideoArgs& args);
int run_video(const VideoArgs& args);

}  // namespace gpuhist::cli
