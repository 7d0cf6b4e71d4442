// The command line: every verb and its options, parsed into the argument
// structs the commands take. Parsing reads and writes no file, so it can be
// tested (and fuzzed) apart from running.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adjust_command.hpp"
#include "bench_command.hpp"
#include "compute_command.hpp"
#include "devices_command.hpp"
#include "draw_command.hpp"
#include "video_bench.hpp"
#include "video_command.hpp"
#include "view_command.hpp"

namespace gpuhist::cli {

class CommandLine {
 public:
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Parses the arguments after the program's name. Returns the status to end
  // with when nothing is to be run (help and --version printed: 0; a usage
  // error printed: 2), nullopt when a verb was parsed.
  [[nodiscard]] std::optional<int> parse(const std::vector<std::string>& arguments);

  // Runs the parsed verb; returns its exit status.
  [[nodiscard]] int run() const;

 private:
  CLI::App app_{"gpuhist: image histograms on the GPU", "gpuhist"};
  ComputeArgs compute_;
  DevicesArgs devices_;
  bench::BenchArgs bench_;
  VideoBenchArgs video_bench_;
  DrawArgs draw_;
  VideoArgs video_;
  ViewArgs view_;
  std::array<AdjustArgs, kAdjustments.size()> adjust_;
  CLI::App* compute_cmd_ = nullptr;
  CLI::App* devices_cmd_ = nullptr;
  CLI::App* bench_cmd_ = nullptr;
  CLI::App* draw_cmd_ = nullptr;
  CLI::App* video_cmd_ = nullptr;
  CLI::App* view_cmd_ = nullptr;
  std::array<CLI::App*, kAdjustments.size()> adjust_cmds_{};
};

// The verb a mistyped first argument was meant as (within two edits for
// verbs of five letters or more, one for shorter ones); empty when none.
[[nodiscard]] std::string meant_verb(const std::string& word);

}  // namespace gpuhist::cli
