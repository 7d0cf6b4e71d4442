// `gpuhist bench`: the GPU benchmark, with photographs read by the image library.
#pragma once

#include <CLI/CLI.hpp>

#include "bench_cli.hpp"
#include "video_bench.hpp"

namespace gpuhist::cli {

CLI::App* add_bench_command(CLI::App& app, bench::BenchArgs& args, VideoBenchArgs& video);
int run_bench_command(const bench::BenchArgs& args, const VideoBenchArgs& video);

}  // namespace gpuhist::cli
