// How a video's Y'CbCr samples relate to RGB, as a stream declares it: what
// VideoReader converts with and VideoWriter writes. Part of the gpuhist::io
// library.
#pragma once

#include <string>

namespace gpuhist {

// How a stream's Y'CbCr relates to RGB, as the stream declares it, in
// FFmpeg's names ("unspecified" where it declares nothing).
struct VideoColour {
  // The Y'CbCr matrix: "bt709", "bt470bg", "smpte170m", "bt2020nc", ... RGB
  // frames are converted with it, as the ffmpeg command line converts them;
  // with Rec. 601's where it is unspecified or one libswscale lacks. "gbr"
  // for a stream of RGB (or paletted) samples, which need none; a video
  // written from such a source is converted with Rec. 709's, and says so.
  std::string matrix = "unspecified";
  std::string primaries = "unspecified";  // "bt709", "bt2020", ...
  std::string transfer = "unspecified";   // "bt709", "smpte2084" (PQ), "arib-std-b67" (HLG), ...
  // "limited", "full" or "unspecified" (which decoders read as limited, but
  // for the JPEG pixel formats, which are full).
  std::string range = "unspecified";

  bool operator==(const VideoColour&) const = default;
};

}  // namespace gpuhist
