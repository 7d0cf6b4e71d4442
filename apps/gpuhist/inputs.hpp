// Expanding the FILES… arguments: files as given, folders searched recursively
// for files with an image extension, in sorted order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpuhist/image_file.hpp"

namespace gpuhist::cli {

struct InputList {
  std::vector<std::filesystem::path> files;
  bool from_folder = false;  // at least one folder was expanded
  // One line per folder that held no image file or could not be listed whole
  // ("FOLDER: cause"); the files found are still in `files`.
  std::vector<std::string> problems;
};

// Arguments that do not exist are kept, so that reading them reports the error.
[[nodiscard]] InputList expand_inputs(const std::vector<std::string>& arguments);

// Prints each problem as an error line; kExitInput if there were any, else kExitOk.
[[nodiscard]] int report_problems(const InputList& inputs);

// Reads one image file, with the image library's own messages to stderr
// silenced (its errors come back as gpuhist::Error naming the file).
[[nodiscard]] Image load_input(const std::filesystem::path& path, std::uint64_t max_pixels);

// A picture an option names (a reference to match to), read as load_input
// reads it; when it cannot be, its error is printed as one line, `status` is
// set to the error's exit status and nullopt returned.
[[nodiscard]] std::optional<Image> load_option_image(const std::filesystem::path& path,
                                                     std::uint64_t max_pixels, int& status);

}  // namespace gpuhist::cli
