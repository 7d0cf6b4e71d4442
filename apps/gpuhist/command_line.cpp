#include "command_line.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <set>
#include <system_error>

#include "exit_codes.hpp"
#include "gpuhist/version.hpp"
#include "messages.hpp"

namespace gpuhist::cli {
namespace {

const std::set<std::string>& verbs() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all = {"compute", "devices", "bench", "draw", "video", "view"};
    for (const AdjustmentInfo& row : kAdjustments) all.emplace(row.name);
    return all;
  }();
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

}  // namespace

std::string meant_verb(const std::string& word) {
  for (const std::string& verb : verbs()) {
    if (edits(word, verb) <= (verb.size() >= 5 ? 2U : 1U)) return verb;
  }
  return {};
}

namespace {

// `compute` is the default verb: `gpuhist photo.jpg` means `gpuhist compute
// photo.jpg`. A first argument that is no file but a verb mistyped is a usage
// error (nullopt, printed here), so that nothing is read or written.
std::optional<std::vector<std::string>> with_default_verb(std::vector<std::string> args) {
  static const std::set<std::string> top_level = {"-h", "--help", "--version"};
  if (args.empty() || verbs().count(args.front()) != 0 || top_level.count(args.front()) != 0) {
    return args;
  }
  std::error_code ec;
  const std::string& first = args.front();
  if (!std::filesystem::exists(first, ec) && first.find_first_of("./") == std::string::npos) {
    if (const std::string verb = meant_verb(first); !verb.empty()) {
      usage_error("unknown verb '" + first + "' (did you mean " + verb + "? see gpuhist --help)");
      return std::nullopt;
    }
  }
  args.insert(args.begin(), "compute");
  return args;
}

// An option or argument given as "" is refused, not taken as one not given
// (`-o ""` wrote to standard output, `--compare ""` compared with nothing).
void refuse_empty_values(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({})) {
    for (CLI::Option* option : sub->get_options()) {
      if (option->get_type_size() == 0) continue;  // a flag
      // Every positional argument is a file.
      const bool file = !option->nonpositional() || option->check_lname("output") ||
                        option->check_lname("compare") || option->check_lname("reference") ||
                        option->check_lname("plot") || option->check_lname("photo");
      option->check(CLI::Validator(
          [file](std::string& text) -> std::string {
            return text.empty() ? (file ? "an empty file name" : "an empty value") : "";
          },
          ""));
    }
    refuse_empty_values(*sub);
  }
}

}  // namespace

CommandLine::CommandLine() {
  app_.set_version_flag("--version", std::string("gpuhist ") + kVersion);
  app_.require_subcommand(1);
  compute_cmd_ = add_compute_command(app_, compute_);
  devices_cmd_ = add_devices_command(app_, devices_);
  bench_cmd_ = add_bench_command(app_, bench_, video_bench_);
  draw_cmd_ = add_draw_command(app_, draw_);
  video_cmd_ = add_video_command(app_, video_);
  view_cmd_ = add_view_command(app_, view_);
  for (std::size_t i = 0; i < kAdjustments.size(); ++i) {
    adjust_cmds_[i] = add_adjust_command(app_, kAdjustments[i].kind, adjust_[i]);
  }
  refuse_empty_values(app_);
}

std::optional<int> CommandLine::parse(const std::vector<std::string>& arguments) {
  std::optional<std::vector<std::string>> with_verb = with_default_verb(arguments);
  if (!with_verb) return kExitUsage;
  std::vector<std::string> args = std::move(*with_verb);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app_.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << app_.version() << '\n';
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      // A subcommand's --help.
      for (CLI::App* sub :
           {compute_cmd_, devices_cmd_, bench_cmd_, draw_cmd_, video_cmd_, view_cmd_}) {
        if (sub->parsed()) std::cout << sub->help();
      }
      for (CLI::App* cmd : adjust_cmds_) {
        if (cmd->parsed()) std::cout << cmd->help();
      }
      return kExitOk;
    }
    // The help to see: the verb's own, where one was parsed.
    std::string help = "gpuhist --help";
    for (const CLI::App* sub : app_.get_subcommands())
      help = "gpuhist " + sub->get_name() + " --help";
    // An unknown option leaves a required argument unfilled (gpuhist --bogus):
    // the option, not the argument, is what to name.
    // Past "--" every argument is a file, not an option.
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
      for (const std::string& left : app_.remaining(true)) {
        if (left == "--") break;
        if (left.size() > 1 && left[0] == '-') {
          return usage_error("unknown option '" + left + "' (see " + help + ")");
        }
      }
    }
    // Arguments left over, in the order given (CLI11 writes them reversed).
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      const CLI::App* verb = &app_;
      for (const CLI::App* sub : app_.get_subcommands()) verb = sub;
      const std::vector<std::string> left = verb->remaining(false);
      for (const std::string& arg : left) {
        if (arg == "--") break;
        if (arg.size() > 1 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1]))) {
          return usage_error("unknown option '" + arg + "' (see " + help + ")");
        }
      }
      if (!left.empty()) {
        std::string listed;
        for (const std::string& arg : left) listed += (listed.empty() ? "'" : " '") + arg + "'";
        return usage_error((left.size() > 1 ? "unexpected arguments " : "unexpected argument ") +
                           listed + " (see " + help + ")");
      }
    }
    // An option of one value given twice, in CLI11's words "--bins: At Most 1
    // required but received 2".
    const std::string what = e.what();
    if (const std::size_t at = what.find(": At Most 1 required but received ");
        dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && at != std::string::npos) {
      return usage_error(what.substr(0, at) + ": given more than once (see " + help + ")");
    }
    return usage_error(what + " (see " + help + ")");
  }
  return std::nullopt;
}

int CommandLine::run() const {
  if (compute_cmd_->parsed()) return run_compute(compute_);
  if (devices_cmd_->parsed()) return run_devices(devices_);
  if (bench_cmd_->parsed()) return run_bench_command(bench_, video_bench_);
  if (draw_cmd_->parsed()) return run_draw(draw_);
  if (video_cmd_->parsed()) return run_video(video_);
  if (view_cmd_->parsed()) return run_view(view_);
  for (std::size_t i = 0; i < adjust_cmds_.size(); ++i) {
    if (adjust_cmds_[i]->parsed()) return run_adjust(adjust_[i]);
  }
  return kExitUsage;
}

}  // namespace gpuhist::cli
