// gpuhist: the command-line tool. Parses the verb and its options, runs it,
// and turns every error into one line on stderr and a documented exit status.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "adjust_command.hpp"
#include "bench_command.hpp"
#include "compute_command.hpp"
#include "devices_command.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/version.hpp"
#include "video_command.hpp"
#include "view_command.hpp"

namespace {

// `compute` is the default verb: `gpuhist photo.jpg` means `gpuhist compute photo.jpg`.
std::vector<std::string> with_default_verb(int argc, char** argv) {
  static const std::set<std::string> verbs = {"compute",   "devices",   "bench",    "draw",
                                              "video",     "view",      "equalize", "clahe",
                                              "autolevel", "threshold", "match"};
  static const std::set<std::string> top_level = {"-h", "--help", "--version"};
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && verbs.count(args.front()) == 0 && top_level.count(args.front()) == 0) {
    args.insert(args.begin(), "compute");
  }
  return args;
}

int run(int argc, char** argv) {
  using namespace gpuhist::cli;
  CLI::App app{"gpuhist: image histograms on the GPU", "gpuhist"};
  app.set_version_flag("--version", std::string("gpuhist ") + gpuhist::kVersion);
  app.require_subcommand(1);
  ComputeArgs compute;
  DevicesArgs devices;
  CLI::App* compute_cmd = add_compute_command(app, compute);
  CLI::App* devices_cmd = add_devices_command(app, devices);
  gpuhist::bench::BenchArgs bench;
  VideoBenchArgs video_bench;
  CLI::App* bench_cmd = add_bench_command(app, bench, video_bench);
  DrawArgs draw;
  CLI::App* draw_cmd = add_draw_command(app, draw);
  VideoArgs video;
  CLI::App* video_cmd = add_video_command(app, video);
  ViewArgs view;
  CLI::App* view_cmd = add_view_command(app, view);
  constexpr std::array<gpuhist::AdjustKind, 5> kinds = {
      gpuhist::AdjustKind::Equalize, gpuhist::AdjustKind::Clahe, gpuhist::AdjustKind::Autolevel,
      gpuhist::AdjustKind::Threshold, gpuhist::AdjustKind::Match};
  std::array<std::pair<CLI::App*, AdjustArgs>, kinds.size()> adjust;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    adjust[i].first = add_adjust_command(app, kinds[i], adjust[i].second);
  }

  std::vector<std::string> args = with_default_verb(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << app.version() << '\n';
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      // A subcommand's --help.
      for (CLI::App* sub : {compute_cmd, devices_cmd, bench_cmd, draw_cmd, video_cmd, view_cmd}) {
        if (sub->parsed()) std::cout << sub->help();
      }
      for (const auto& [cmd, adjust_args] : adjust) {
        if (cmd->parsed()) std::cout << cmd->help();
      }
      return kExitOk;
    }
    std::cerr << "gpuhist: error: " << e.what() << " (see gpuhist --help)\n";
    return kExitUsage;
  }
  if (compute_cmd->parsed()) return run_compute(compute);
  if (devices_cmd->parsed()) return run_devices(devices);
  if (bench_cmd->parsed()) return run_bench_command(bench, video_bench);
  if (draw_cmd->parsed()) return run_draw(draw);
  if (video_cmd->parsed()) return run_video(video);
  if (view_cmd->parsed()) return run_view(view);
  for (const auto& [cmd, adjust_args] : adjust) {
    if (cmd->parsed()) return run_adjust(adjust_args);
  }
  return kExitUsage;
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
  return gpuhist::cli::kExitInternal;
}
