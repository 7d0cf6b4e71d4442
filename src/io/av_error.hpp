// FFmpeg error codes as text, for the video reader and writer.
#pragma once

extern "C" {
#include <libavutil/error.h>
}

#include <string>

namespace gpuhist::io {

inline std::string av_message(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

}  // namespace gpuhist::io
