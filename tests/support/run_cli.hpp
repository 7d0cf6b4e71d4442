// Runs the built gpuhist binary and captures its exit status and output.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuhist::test {

struct CliResult {
  int status = -1;  // exit status; 128 + N when killed by signal N
  std::string out;
  std::string err;
};

// `env`: VAR=VALUE settings for this run alone. Standard input is empty, or
// the bytes of `piped` through a pipe (which cannot be read twice or seeked).
CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                  const std::filesystem::path& piped = {});

// Expects a failed run to have printed exactly one line, "gpuhist: error: ...",
// mentioning `needle`.
void expect_one_line_error(const CliResult& r, const std::string& needle);

// A fresh empty folder under the system temp folder.
std::string temp_dir();

// Runs the ffmpeg command line quietly with `args` (test clips); true on success.
bool ffmpeg(const std::string& args);

// Runs ffprobe quietly (-v error) with `args` on `file`: what it prints, or
// nullopt when it fails.
std::optional<std::string> ffprobe(const std::string& args, const std::filesystem::path& file);

// What the shell command `command` prints (stdout; add 2>&1 for stderr too).
std::string command_output(const std::string& command);

// The whole of a file's bytes; empty when it cannot be read.
std::string file_text(const std::filesystem::path& path);
std::vector<unsigned char> file_bytes(const std::filesystem::path& path);

// Writes `damaged`: a 10-frame 64x48 MJPEG clip (AVI) whose sixth frame's
// JPEG data, from its start to its end marker, is wiped to zeros; false if
// ffmpeg fails or the frame is not found.
bool damaged_mjpeg_clip(const std::string& folder, const std::string& damaged);

}  // namespace gpuhist::test
