// `gpuhist equalize|clahe|autolevel|threshold|match IN -o OUT`: an image
// adjusted by its histogram (or its tiles' histograms), written at its own bit depth.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace gpuhist::cli {

enum class AdjustVerb { Equalize, Clahe, Autolevel, Threshold, Match };
inline constexpr std::array<AdjustVerb, 5> kAdjustVerbs = {
    AdjustVerb::Equalize, AdjustVerb::Clahe, AdjustVerb::Autolevel, AdjustVerb::Threshold,
    AdjustVerb::Match};

struct AdjustArgs {
  AdjustVerb verb = AdjustVerb::Equalize;
  std::string input;
  std::string output;
  std::string channels = "luminance";  // each | luminance
  std::string clip = "0.5";            // autolevel: LOW[,HIGH] percent
  std::string method = "otsu";         // threshold: otsu | triangle | a value
  std::string reference;               // match
  std::string tiles = "8x8";           // clahe: tiles across x down
  double clip_limit = 2.0;             // clahe: times a tile's mean bin count
  std::string luma = "709";
  std::string strategy;  // counting; empty: the device's default
  std::string device = "auto";
  std::string apply;             // cpu | gpu; empty: gpu on a hardware GPU
  std::uint64_t max_pixels = 0;  // set from kDefaultMaxPixels
};

// Adds the verb's subcommand and its options to the app.
CLI::App* add_adjust_command(CLI::App& app, AdjustVerb verb, AdjustArgs& args);

// Runs it; returns the exit status.
int run_adjust(const AdjustArgs& args);

}  // namespace gpuhist::cli
