// `gpuhist view IN`: the live viewer, a window that plays a video or shows an
// image with its histograms drawn over it.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "adjust_command.hpp"
#include "inputs.hpp"

namespace gpuhist::cli {

struct ViewArgs {
  std::string input;
  std::string device = "auto";
  std::string size;  // window WxH
  std::uint32_t bins = 256;
  std::string luma = "709";
  std::string strategy;  // default: gpu
  std::string scale = "clip";
  bool exit_at_end = false;
  std::string adjust;     // the first adjustment shown
  std::string reference;  // the picture match matches to
  AdjustParams adjust_params;
  ReadOptions read;  // how a still picture (and the reference) is read
  std::string formats = "common";
};

CLI::App* add_view_command(CLI::App& app, ViewArgs& args);
int run_view(const ViewArgs& args);

}  // namespace gpuhist::cli
