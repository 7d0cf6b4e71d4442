// Command-line options of the GPU benchmark, shared by `gpuhist bench` and
// the engine-only `gpuhist-bench`.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "bench_runner.hpp"

namespace gpuhist::bench {

struct BenchArgs {
  bool quick = false;
  bool tune = false;
  bool e2e = false;                         // host memory to counts only
  std::string format = "table";
  std::string output;
  std::string device = "auto";
  std::string photo;
  std::vector<std::string> sizes;           // WxH
  std::vector<std::string> strategies;      // names
  std::vector<std::string> kinds;           // random, one-colour, photo
  std::vector<std::string> cases;           // FORMAT:BINS, e.g. rgba16:65536
  std::uint32_t repetitions = 0;            // 0: the configuration's default
  std::vector<std::string> stream_sizes;    // WxH; "none" for no stream
  std::uint32_t stream_frames = 0;          // 0: the configuration's default
  std::uint32_t stream_in_flight = 0;       // 0: the configuration's default
  std::uint32_t stream_queues = 0;          // 0: the configuration's default
  std::uint32_t stream_batch = 0;           // 0: the configuration's default
  std::uint32_t stream_copy_threads = 0;    // 0: by frame size
  std::string stream_memory = "cached";     // cached or upload
  std::vector<std::string> adjust_sizes;    // WxH; "none" for no adjustments
  std::vector<std::string> adjust_formats;  // rgb8, rgb16, grey8, …
};

void add_bench_options(CLI::App& app, BenchArgs& args);

// Runs the benchmark; `load_photo` turns --photo's path into pixels. Returns
// the exit status (0, 2 for bad options, 3 for device failures, 4 for output).
int run_bench(const BenchArgs& args, const std::function<Photo(const std::string&)>& load_photo);

}  // namespace gpuhist::bench
