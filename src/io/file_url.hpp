// A local path as FFmpeg opens it: FFmpeg takes what it is given as a URL,
// so a file named "concat:a.ts" or "pipe:x.mp4" would read another file or
// standard input. With the "file:" protocol named, the name is the file's.
#pragma once

#include <filesystem>
#include <string>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
}

namespace gpuhist::io {

inline std::string file_url(const std::filesystem::path& path) { return "file:" + path.string(); }

// avformat_open_input of the file `path` names: by its URL, and with the
// image demuxer's patterns off, so that "img%03d.png" is that one picture,
// not the sequence img001.png, img002.png, ... (other demuxers leave the
// option alone).
inline int open_file_input(AVFormatContext** context, const std::filesystem::path& path) {
  AVDictionary* options = nullptr;
  int e = av_dict_set(&options, "pattern_type", "none", 0);
  if (e >= 0) e = avformat_open_input(context, file_url(path).c_str(), nullptr, &options);
  av_dict_free(&options);
  return e;
}

}  // namespace gpuhist::io
