// Why a file is not there to be read, in open()'s words, from the error of
// std::filesystem::status on its name. Shared by the image, plane and video
// readers.
#pragma once

#include <string>
#include <system_error>

namespace gpuhist::io {

// "no such file", or where the name cannot reach a file: "not a directory"
// (a file on the way named as a folder, "a.png/x"), "file name too long",
// "too many levels of symbolic links" (a link that leads back to itself),
// "cannot open: Permission denied" (a folder on the way that may not be
// entered), or the system's words for another error.
[[nodiscard]] inline std::string missing_file_cause(const std::error_code& ec) {
  if (ec == std::errc::permission_denied) return "cannot open: " + ec.message();
  if (ec == std::errc::not_a_directory) return "not a directory";
  if (ec == std::errc::filename_too_long) return "file name too long";
  if (ec == std::errc::too_many_symbolic_link_levels) return "too many levels of symbolic links";
  if (!ec || ec == std::errc::no_such_file_or_directory) return "no such file";
  return ec.message();
}

}  // namespace gpuhist::io
