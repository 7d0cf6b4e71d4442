// What compute, draw and video share: the counting options and opening the
// device, each failure printed as one line with its exit status.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuhist/context.hpp"

#include "messages.hpp"

namespace gpuhist::cli {

// Checks an option's text is a whole number from `from` (0 or 1) up, written
// in decimal digits (CLI11 would take "-1" for an unsigned option as its
// wrapped value, "010" as octal), and drops its leading zeros: a transform.
[[nodiscard]] CLI::Validator whole_number(unsigned from = 1, std::uint64_t most = UINT64_MAX);
// --device's text with the words "cpu" and "auto" in lower case, as the
// library takes them in any case (device names match in any case): a transform.
[[nodiscard]] CLI::Validator device_name();
// Checks an option's text is one decimal number ("1.5", "2e-3"; not empty,
// not hexadecimal, not infinite).
[[nodiscard]] CLI::Validator real_number();

// The value of `text` written in decimal digits alone; nullopt otherwise or
// past 2^64 - 1.
[[nodiscard]] std::optional<std::uint64_t> parse_whole(std::string_view text);
// The value of `text`, one finite decimal number with an optional sign ("1.5",
// "-2", "+2e-3"), surrounding spaces allowed; nullopt otherwise.
[[nodiscard]] std::optional<double> parse_real(std::string_view text);

// Checks an option's text is not empty (an output's name).
[[nodiscard]] CLI::Validator file_name();
// A list option given as "": a usage error, not nothing asked for.
[[nodiscard]] CLI::Validator number_list();

// "5,25,99.9" -> {5, 25, 99.9}: numbers separated by commas, each finite and
// within [low, high]; nullopt for an empty list, an empty item or anything else.
[[nodiscard]] std::optional<std::vector<double>> parse_numbers(const std::string& list, double low,
                                                               double high);

// --bins, --luma and --strategy as the library wants them.
struct Counting {
  HistogramOptions options;
  RunOptions run;
};

// Parses the counting options; on a bad value prints why and returns nullopt
// (the exit status is then kExitUsage).
[[nodiscard]] std::optional<Counting> parse_counting(std::uint32_t bins, const std::string& luma,
                                                     const std::string& strategy);

// --space: whether the planes are counted as decoded (ycbcr) rather than as
// RGB. On an unknown value, or --luma other than 709 with ycbcr (the Y' plane
// is counted as decoded, not weighed), prints why and returns nullopt.
[[nodiscard]] std::optional<bool> parse_space(const std::string& space, const std::string& luma);

// Opens `device` and checks that the chosen strategy (the device's default
// when none was given) can run there; fills in run.strategy. On failure prints
// one line and sets `status` (usage or device), returning nullopt.
[[nodiscard]] std::optional<Context> open_for(const std::string& device, RunOptions& run,
                                              int& status);

}  // namespace gpuhist::cli
