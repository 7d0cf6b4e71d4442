// Expanding the FILES… arguments: files as given, folders searched recursively
// for files with an image extension, in sorted order.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpuhist::cli {

struct InputList {
  std::vector<std::filesystem::path> files;
  bool from_folder = false;  // at least one folder was expanded
};

// Arguments that do not exist are kept, so that reading them reports the error.
[[nodiscard]] InputList expand_inputs(const std::vector<std::string>& arguments);

}  // namespace gpuhist::cli
