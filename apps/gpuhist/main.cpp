// gpuhist: the command-line tool. Parses the verb and its options, runs it,
// and turns every error into one line on stderr and a documented exit status.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <csignal>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adjust_command.hpp"
#include "bench_command.hpp"
#include "compute_command.hpp"
#include "decode_worker.hpp"
#include "devices_command.hpp"
#include "draw_command.hpp"
#include "exit_codes.hpp"
#include "gpuhist/output_file.hpp"
#include "gpuhist/version.hpp"
#include "messages.hpp"
#include "video_command.hpp"
#include "view_command.hpp"

namespace {

const std::set<std::string>& verbs() {
  static const std::set<std::string> names = {"compute",   "devices",   "bench",    "draw",
                                              "video",     "view",      "equalize", "clahe",
                                              "autolevel", "threshold", "match"};
  return names;
}

// Levenshtein distance: how many letters to add, remove or change.
std::size_t edits(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The verb a mistyped first argument was meant as: one within two edits
// (equalise, vidoe); empty when none is that close.
std::string meant_verb(const std::string& word) {
  for (const std::string& verb : verbs()) {
    if (edits(word, verb) <= (verb.size() >= 5 ? 2U : 1U)) return verb;
  }
  return {};
}

// `compute` is the default verb: `gpuhist photo.jpg` means `gpuhist compute
// photo.jpg`. A first argument that is no file but a verb mistyped is a usage
// error (nullopt, printed here), so that nothing is read or written.
std::optional<std::vector<std::string>> with_default_verb(int argc, char** argv) {
  static const std::set<std::string> top_level = {"-h", "--help", "--version"};
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || verbs().count(args.front()) != 0 || top_level.count(args.front()) != 0) {
    return args;
  }
  std::error_code ec;
  const std::string& first = args.front();
  if (!std::filesystem::exists(first, ec) && first.find_first_of("./") == std::string::npos) {
    if (const std::string verb = meant_verb(first); !verb.empty()) {
      gpuhist::cli::usage_error("unknown verb '" + first + "' (did you mean " + verb +
                                "? see gpuhist --help)");
      return std::nullopt;
    }
  }
  args.insert(args.begin(), "compute");
  return args;
}

// An interrupted run leaves no half-written output: temporary files go, then
// the signal ends the process as it would have.
extern "C" void on_fatal_signal(int signal) {
  gpuhist::remove_unfinished_outputs();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
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

  std::optional<std::vector<std::string>> parsed_verb = with_default_verb(argc, argv);
  if (!parsed_verb) return kExitUsage;
  std::vector<std::string> args = std::move(*parsed_verb);
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
    return usage_error(std::string(e.what()) + " (see gpuhist --help)");
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
  if (argc == 2 && std::string(argv[1]) == gpuhist::cli::kDecodeWorkerVerb) {
    return gpuhist::cli::run_decode_worker();
  }
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, on_fatal_signal);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    gpuhist::cli::print_error(gpuhist::cli::describe(e));
  } catch (...) {
    gpuhist::cli::print_error("unexpected failure");
  }
  return gpuhist::cli::kExitInternal;
}
