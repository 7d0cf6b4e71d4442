// Expanding the FILES… arguments: files as given, folders searched recursively
// for files with an image extension, in sorted order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpuhist/decode_files.hpp"
#include "gpuhist/image_file.hpp"
#include "quiet_stderr.hpp"

namespace gpuhist::cli {

struct InputList {
  std::vector<std::filesystem::path> files;
  bool from_folder = false;  // at least one folder was expanded
  // One line per folder that held no image file or could not be listed whole
  // ("FOLDER: cause"); the files found are still in `files`.
  std::vector<std::string> problems;
};

// Arguments that do not exist are kept, so that reading them reports the
// error. Folders give the files whose extension is of a format of `formats`.
[[nodiscard]] InputList expand_inputs(const std::vector<std::string>& arguments,
                                      FormatSet formats = FormatSet::Common);

// Prints each problem as an error line; kExitInput if there were any, else kExitOk.
[[nodiscard]] int report_problems(const InputList& inputs);

// How the image files of a command are read (--max-pixels, --formats,
// --isolate).
struct ReadOptions {
  std::uint64_t max_pixels = kDefaultMaxPixels;
  FormatSet formats = FormatSet::Common;
  bool isolate = false;  // every file decoded in a separate process
  bool alpha = false;    // RGBA files read with their alpha (to write it back)
  // The command's --max-pixels and --formats set these (video reads its
  // pictures with neither): errors name those options where they help.
  bool optioned = true;
};

// Reads one image file, with the image library's own messages to stderr
// silenced (its errors come back as gpuhist::Error naming the file). Formats
// outside the common set, and every file with `isolate`, are decoded in a
// separate process (decode_worker.hpp): a decoder that crashes costs one file.
[[nodiscard]] Image load_input(const std::filesystem::path& path, const ReadOptions& options);

// The inputs' files decoded as load_input does, on one thread per core, and
// handed over in order (on one thread with --isolate or --formats all, whose
// worker process decodes one file at a time). Stderr is silenced for the
// decoder's life, the CLI's own messages still shown (SilencedStderr).
class InputDecoder {
 public:
  InputDecoder(const std::vector<std::filesystem::path>& files, const ReadOptions& options);
  // The next file's image; throws what load_input threw for it.
  [[nodiscard]] Image next();

 private:
  SilencedStderr silenced_;  // made first, ended after the threads are joined
  DecodeFiles files_;
};

// Adds --max-pixels, --formats and --isolate to a command.
void add_read_options(CLI::App* cmd, ReadOptions& options, std::string& formats);

// Checks --formats (--max-pixels is checked as it is parsed); on a bad value
// prints why and returns false (the exit status is then kExitUsage).
[[nodiscard]] bool parse_read_options(const std::string& formats, ReadOptions& options);

// Warnings on stderr when the file holds pages after the one counted, and
// when its decoder warned that it may be damaged (Image::warning).
void warn_about_file(const std::filesystem::path& path, const Image& image);

// A picture an option names (a reference to match to), read as load_input
// reads it; when it cannot be, its error is printed as one line naming the
// option ("--reference FILE: no such file"), `status` is set to the error's
// exit status and nullopt returned.
[[nodiscard]] std::optional<Image> load_option_image(std::string_view option,
                                                     const std::filesystem::path& path,
                                                     const ReadOptions& options, int& status);

}  // namespace gpuhist::cli
