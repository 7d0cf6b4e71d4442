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
#include "gpuhist/video_writer.hpp"

#include "gpuhist/image_file.hpp"

namespace gpuhist::cli {

struct VideoArgs {
  std::string input;  // the file opened: /dev/stdin for -
  std::string name;   // how messages name it, when not `input`: "standard input" for -
  std::string format = "jsonl";
  std::string output;
  std::uint32_t bins = 256;
  std::string luma = "709";
  std::string strategy;
  std::string device = "auto";
  bool no_progress = false;
  std::uint64_t max_pixels = kDefaultMaxPixels;  // frames larger than this are refused
  bool overlay = false;                          // -o names an annotated video instead of the rows
  std::string space = "rgb";  // rgb | ycbcr: what is counted
  unsigned decode_threads = 0;  // FFmpeg's decoding threads; 0: one per core
  VideoEncoding encoding;  // --codec, --crf, --preset of a written video
  std::string size;               // overlay video size WxH (default: the input's, made even)
  std::string renderer;           // overlay: cpu or gpu (default: gpu on a hardware GPU, else cpu)
  std::string percentiles;        // extra percentiles of every frame, "5,95"
  std::string compare;            // a reference image to compare every frame with
  bool compare_previous = false;  // compare every frame with the one before
  std::string adjust;             // adjust every frame of the written video (an AdjustKind name)
  AdjustParams adjust_params;
  std::string
      adjust_option;  // an adjustment's option given (--tiles, …), to be refused without --adjust
  std::string reference;  // --adjust match: the image whose histogram to match
  std::string apply;      // cpu | gpu: who applies --adjust's tables

  [[nodiscard]] const std::string& shown() const { return name.empty() ? input : name; }
};

CLI::App* add_video_command(CLI::App& app, VideoArgs& args);

int run_video(const VideoArgs& args);

}  // namespace gpuhist::cli
