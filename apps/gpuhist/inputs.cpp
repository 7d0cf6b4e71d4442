#include "inputs.hpp"

#include <algorithm>
#include <iostream>
#include <system_error>

#include "exit_codes.hpp"
#include "quiet_stderr.hpp"

namespace gpuhist::cli {

InputList expand_inputs(const std::vector<std::string>& arguments) {
  InputList list;
  for (const std::string& argument : arguments) {
    const std::filesystem::path path(argument);
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      list.files.push_back(path);
      continue;
    }
    list.from_folder = true;
    std::vector<std::filesystem::path> found;
    const auto options = std::filesystem::directory_options::skip_permission_denied;
    for (auto it = std::filesystem::recursive_directory_iterator(path, options, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && has_image_extension(it->path())) found.push_back(it->path());
    }
    if (ec) {
      list.problems.push_back(argument + ": cannot list the folder: " + ec.message());
    } else if (found.empty()) {
      list.problems.push_back(argument + ": no image files in this folder");
    }
    std::sort(found.begin(), found.end());
    list.files.insert(list.files.end(), found.begin(), found.end());
  }
  return list;
}

int report_problems(const InputList& inputs) {
  for (const std::string& problem : inputs.problems) {
    std::cerr << "gpuhist: error: " << problem << '\n';
  }
  return inputs.problems.empty() ? kExitOk : kExitInput;
}

Image load_input(const std::filesystem::path& path, std::uint64_t max_pixels) {
  const QuietStderr quiet;
  return load_image(path, LoadOptions{max_pixels});
}

std::optional<Image> load_option_image(const std::filesystem::path& path, std::uint64_t max_pixels,
                                       int& status) {
  try {
    return load_input(path, max_pixels);
  } catch (const Error& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    status = exit_status(e.kind());
    return std::nullopt;
  }
}

}  // namespace gpuhist::cli
