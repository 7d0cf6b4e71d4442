// `gpuhist compute FILES…`: histograms and statistics of image files.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"

namespace gpuhist::cli {

struct ComputeArgs {
  std::vector<std::string> inputs;
  std::string format = "table";
  bool format_given = false;  // --format was on the command line
  std::string output;
  std::uint32_t bins = 256;
  std::string luma = "709";
  std::string strategy;  // empty: the device's default
  std::string chunk = "256x1";
  std::string device = "auto";
  ReadOptions read;                // --max-pixels, --isolate
  std::string formats = "common";  // --formats
  bool merge = false;
  bool no_progress = false;
  std::string plot;         // report picture(s), as `draw --report`
  std::string percentiles;  // extra percentiles, "5,95"
  std::string compare;      // a reference image to compare every file with
  std::string space = "rgb";  // rgb | ycbcr: what is counted
};

// Adds the `compute` subcommand and its options to the app.
CLI::App* add_compute_command(CLI::App& app, ComputeArgs& args);

// Runs it; returns the exit status.
int run_compute(const ComputeArgs& args);

}  // namespace gpuhist::cli
