// The stream of a kind that the ffmpeg command line maps from an input by
// default, for the video reader (its video) and writer (its audio): the
// highest score, the first of equal ones, where a video stream scores its
// width x height and an audio stream its channels, + 100000000 where the
// probe saw packets of it and + 5000000 where it is marked default (FFmpeg
// 5.1's fftools rule). Cover art is no video.
#pragma once

extern "C" {
#include <libavformat/avformat.h>
}

#include <cstdint>

namespace gpuhist::io {

// The index of that stream in `format`, or AVERROR_STREAM_NOT_FOUND.
inline int picked_stream(const AVFormatContext& format, AVMediaType kind) {
  int picked = AVERROR_STREAM_NOT_FOUND;
  std::int64_t best = 0;
  for (unsigned i = 0; i < format.nb_streams; ++i) {
    const AVStream& stream = *format.streams[i];
    const AVCodecParameters& p = *stream.codecpar;
    if (p.codec_type != kind ||
        (kind == AVMEDIA_TYPE_VIDEO && (stream.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0)) {
      continue;
    }
    const std::int64_t size = kind == AVMEDIA_TYPE_VIDEO ? std::int64_t{p.width} * p.height
                                                         : std::int64_t{p.ch_layout.nb_channels};
    const std::int64_t score =
        size + ((stream.event_flags & AVSTREAM_EVENT_FLAG_NEW_PACKETS) != 0 ? 100000000 : 0) +
        ((stream.disposition & AV_DISPOSITION_DEFAULT) != 0 ? 5000000 : 0);
    if (picked < 0 || score > best) {
      picked = static_cast<int>(i);
      best = score;
    }
  }
  return picked;
}

}  // namespace gpuhist::io
