// `gpuhist equalize|clahe|autolevel|threshold|match IN -o OUT`: an image
// adjusted by its histogram (or its tiles' histograms), written at its own bit
// depth; and the adjustment options that `video --adjust` shares.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"

#include "inputs.hpp"

namespace gpuhist::cli {

// The options that tune an adjustment, as given.
struct AdjustParams {
  std::string channels = "luminance";  // each | luminance
  std::string clip = "0.5";            // autolevel: LOW[,HIGH] percent
  std::string method = "otsu";         // threshold: otsu | triangle | a value
  std::string tiles = "8x8";           // clahe: tiles across x down
  double clip_limit = 2.0;             // clahe: times a tile's mean bin count
};

// Adds the options `kind` takes (every one when `kind` is empty).
void add_adjust_options(CLI::App* cmd, std::optional<AdjustKind> kind, AdjustParams& params);

// "--method N is above L, the largest B-bit sample value" where `a`'s fixed
// threshold lies past the largest value of `sample`; "" otherwise (whatever
// `a.kind`, which the caller checks where it matters).
[[nodiscard]] std::string threshold_above_samples(const Adjustment& a, SampleType sample);

// The adjustment the options describe (without its reference); prints why
// and returns nullopt when one is bad (the exit status is then kExitUsage).
[[nodiscard]] std::optional<Adjustment> parse_adjustment(AdjustKind kind,
                                                         const AdjustParams& params,
                                                         LumaWeights luma);

// Where the tables are applied: --apply cpu|gpu, by default the GPU when the
// context has a hardware one. Prints why and returns nullopt for a bad value.
[[nodiscard]] std::optional<bool> parse_apply(const std::string& apply, const Context& context,
                                              const std::string& device, int& status);

struct AdjustArgs {
  AdjustKind kind = AdjustKind::Equalize;
  std::vector<std::string> inputs;  // files and folders
  std::string output;               // OUT, or OUT-<name>.EXT for each of several images
  AdjustParams params;
  std::string reference;  // match
  std::string luma = "709";
  std::string strategy;  // counting; empty: the device's default
  std::string device = "auto";
  std::string apply;               // cpu | gpu; empty: gpu on a hardware GPU
  ReadOptions read;                // --max-pixels, --isolate
  std::string formats = "common";  // --formats
  std::optional<std::string> quality;  // --quality of JPEG and WebP outputs (default 100)
};

// Adds the verb's subcommand and its options to the app.
CLI::App* add_adjust_command(CLI::App& app, AdjustKind kind, AdjustArgs& args);

// Runs it; returns the exit status.
int run_adjust(const AdjustArgs& args);

}  // namespace gpuhist::cli
