// `gpuhist bench`: the GPU benchmark, with photographs read by the image library.
#pragma once

#include <CLI/CLI.hpp>

#include "bench_cli.hpp"

namespace gpuhist::cli {

CLI::App* add_bench_command(CLI::App& app, bench::BenchArgs& args);
int run_bench_command(const bench::BenchArgs& args);

}  // namespace gpuhist::cli
