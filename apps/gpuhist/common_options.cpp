#include "common_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>

#include "exit_codes.hpp"
#include "gpuhist/error.hpp"
#include "messages.hpp"

namespace gpuhist::cli {

CLI::Validator whole_number(unsigned from, std::uint64_t most) {
  return CLI::Validator(
      [from, most](std::string& text) -> std::string {
        const bool digits =
            !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || (from > 0 && text.find_first_not_of('0') == std::string::npos)) {
          return "'" + text + "' is not a whole number from " + std::to_string(from) + " up";
        }
        // Decimal, whatever the leading zeros: the option's own conversion
        // would read "010" as octal 8 and refuse "08".
        text.erase(0, std::min(text.find_first_not_of('0'), text.size() - 1));
        // Past 2^64 - 1 the option's value would wrap.
        std::uint64_t value = 0;
        if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc{}) {
          return "'" + text + "' is too large (2^64 - 1 at most)";
        }
        if (value > most)
          return "'" + text + "' is too large (" + std::to_string(most) + " at most)";
        return {};
      },
      "N");
}

CLI::Validator device_name() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::string lower = text;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower == "cpu" || lower == "auto") text = lower;
        return "";
      },
      "");
}

CLI::Validator real_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return parse_real(text) ? "" : "'" + text + "' is not a number";
      },
      "X");
}

std::optional<std::uint64_t> parse_whole(std::string_view text) {
  std::uint64_t value = 0;
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_real(std::string_view text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(' ') - first + 1);
  if (text.front() == '+') {
    text.remove_prefix(1);
    if (text.empty() || text.front() == '+' || text.front() == '-') return std::nullopt;  // "+-2"
  }
  // (from_chars reads decimal alone: no hexadecimal, no leading '+' or space.)
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

CLI::Validator number_list() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "an empty list (numbers separated by commas)" : "";
      },
      "LIST");
}

CLI::Validator file_name() {
  return CLI::Validator(
      [](std::string& text) -> std::string { return text.empty() ? "an empty file name" : ""; },
      "FILE");
}

std::optional<Counting> parse_counting(std::uint32_t bins, const std::string& luma,
                                       const std::string& strategy) {
  Counting counting;
  if (bins < kMinBins || bins > kMaxBins) {
    usage_error("--bins must be between 1 and 65536, got " + std::to_string(bins));
    return std::nullopt;
  }
  const auto weights = parse_luma(luma);
  if (!weights) {
    usage_error("unknown --luma '" + luma + "' (709, 601)");
    return std::nullopt;
  }
  counting.options = {bins, *weights};
  if (!strategy.empty()) {
    counting.run.strategy = parse_strategy(strategy);
    if (!counting.run.strategy) {
      usage_error("unknown --strategy '" + strategy +
                  "' (cpu-reference, cpu, gpu-single, gpu-atomic, gpu-chunks-sum, "
                  "gpu-chunks-reduce, gpu)");
      return std::nullopt;
    }
  }
  return counting;
}

std::optional<bool> parse_space(const std::string& space, const std::string& luma) {
  if (space != "rgb" && space != "ycbcr") {
    usage_error("unknown --space '" + space + "' (rgb, ycbcr)");
    return std::nullopt;
  }
  if (space == "ycbcr" && luma != "709") {
    usage_error(
        "--luma weighs red, green and blue into luminance; --space ycbcr counts "
        "the Y' plane as decoded");
    return std::nullopt;
  }
  return space == "ycbcr";
}

std::optional<Context> open_for(const std::string& device, RunOptions& run, int& status) {
  // CPU strategies need no Vulkan device unless one was asked for by name.
  const bool cpu_only = run.strategy && !runs_on_gpu(*run.strategy) && device == "auto";
  std::optional<Context> context;
  try {
    context.emplace(Context::open(cpu_only ? "cpu" : device));
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::InvalidArgument) {
      status = usage_error(describe(e));
    } else {
      print_error(describe(e));
      status = kExitDevice;
    }
    return std::nullopt;
  }
  const Strategy strategy = run.strategy.value_or(context->default_strategy());
  if (runs_on_gpu(strategy) && context->device() == nullptr) {
    if (device == "cpu") {
      status = usage_error("strategy " + std::string(to_string(strategy)) +
                           " needs a Vulkan device, but --device cpu was given");
    } else {
      std::cerr << "gpuhist: error: strategy " << to_string(strategy)
                << " needs a Vulkan device, and none was found\n";
      status = kExitDevice;
    }
    return std::nullopt;
  }
  run.strategy = strategy;
  return context;
}

std::optional<std::vector<double>> parse_numbers(const std::string& list, double low, double high) {
  std::vector<double> values;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    const std::optional<double> value = parse_real(item);
    if (!value || *value < low || *value > high) return std::nullopt;
    values.push_back(*value);
  }
  if (values.empty() || list.back() == ',') return std::nullopt;
  return values;
}

}  // namespace gpuhist::cli
