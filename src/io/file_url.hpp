// A local path as FFmpeg opens it: FFmpeg takes what it is given as a URL,
// so a file named "concat:a.ts" or "pipe:x.mp4" would read another file or
// standard input. With the "file:" protocol named, the name is the file's.
#pragma once

#include <filesystem>
#include <string>

namespace gpuhist::io {

inline std::string file_url(const std::filesystem::path& path) { return "file:" + path.string(); }

}  // namespace gpuhist::io
