// A file name's extension as the readers and writers compare it: lower case,
// without its dot ("Photo.JPG" -> "jpg"; "" where there is none). Header-only:
// the image-file module and the viewer use it too.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>

namespace gpuhist {

[[nodiscard]] inline std::string lower_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension.size() < 2) return {};
  extension.erase(0, 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace gpuhist
