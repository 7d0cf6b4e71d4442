// gpuhist-bench: the GPU benchmark with no dependency beyond the Vulkan loader
// (photographs come as binary PPM/PAM files), for machines that have nothing
// but a GPU driver.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

#include "bench_cli.hpp"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"gpuhist-bench: time every histogram strategy", "gpuhist-bench"};
  gpuhist::bench::BenchArgs args;
  gpuhist::bench::add_bench_options(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      std::cout << app.help();
      return 0;
    }
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    return 2;
  }
  return gpuhist::bench::run_bench(args, gpuhist::bench::read_netpbm);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "gpuhist: error: unexpected failure\n";
  }
  return 70;
}
