// Writing RGB8 frames to a video file through FFmpeg's libraries, with the
// encoder and its quality settings chosen (H.264 by default). Part of the
// gpuhist::io library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "gpuhist/pixel_aspect.hpp"
#include "gpuhist/render.hpp"
#include "gpuhist/video_colour.hpp"

namespace gpuhist {

// The encoder and its settings. `codec`: "h264" (libx264; MPEG-4 Part 2
// where FFmpeg has no libx264 and no codec was asked for), "hevc" (libx265),
// "vp9" (libvpx-vp9), "av1" (libsvtav1) or "mpeg4". `crf`: constant quality,
// 0..51 for h264 and hevc, 0..63 for vp9 and av1 (unset: the encoder's
// default); mpeg4 has none. `preset`: for h264 and hevc one of x264's names
// (ultrafast, superfast, veryfast, faster, fast, medium, slow, slower,
// veryslow, placebo), for av1 0..13; empty: veryfast for h264 and hevc, the
// encoder's default otherwise; vp9 and mpeg4 take none. `colour`: the source's
// colour description (VideoReader::colour), kept in the video written: its
// frames are converted to limited-range Y'CbCr with the source's matrix
// (Rec. 601's where it declares none or one libswscale lacks), and the
// matrix, primaries and transfer it declares are written as it declares them,
// with the range as limited where it declares one.
struct VideoEncoding {
  std::string codec{};  // empty: h264
  std::optional<int> crf{};
  std::string preset{};
  VideoColour colour{};
  // The shape of the pixels written (a source's VideoReader::pixel_aspect()).
  PixelAspect pixel_aspect{};
};

// Throws Error(InvalidArgument) naming the problem when `encoding` asks for
// a codec FFmpeg has no encoder for, a crf out of the codec's range, or a
// preset the codec does not take.
void validate(const VideoEncoding& encoding);

// Whether the extension of `path` names a container of video (.mp4, .mkv,
// .mov, .webm, .avi, …), as the writer picks its container.
[[nodiscard]] bool names_video_container(const std::filesystem::path& path);

class VideoWriter {
 public:
  // Opens `path` (the container follows the extension) for frames of
  // width x height (even numbers) at `frame_rate`, which the stream declares
  // and whose frames time it (a source's VideoReader::base_rate()). With
  // `audio_from`, the first audio stream of that file is copied in, packet
  // for packet, interleaved by time with the frames. Throws Error(InvalidArgument) as validate()
  // does or for a container that cannot hold the codec, Error(Output) otherwise.
  VideoWriter(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
              double frame_rate, const std::filesystem::path& audio_from = {},
              const VideoEncoding& encoding = {});
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;
  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;
  ~VideoWriter();

  // Encodes one frame (RGBA8 rows, alpha ignored), a frame of the frame rate
  // after the one before (the first at 0). Throws Error(Output).
  void write(const Picture& frame);
  // The same, shown at `seconds` from the source's start (its frame's time
  // less VideoReader::start_time()): a source of variable frame rate (a
  // screen recording, a phone clip) keeps its timing, and the audio copied
  // with it, which starts from its file's start too, stays in step. The time
  // is kept in the container's ticks (a millisecond in Matroska and WebM,
  // 1/90000 s in MPEG-TS, a ten-thousandth or finer in MP4 and MOV), rounded
  // to a frame of the frame rate in AVI, MXF and IVF files and raw streams,
  // where a frame whose time rounds to the frame before's is left out
  // (frames_left_out()), as the ffmpeg command line leaves it out, so the
  // frames after it and the audio stay in step (AVI fills a gap between
  // frames; a raw stream, which has no times, plays its frames a tick
  // apart). A
  // time more than two frames before the last frame's (a source whose clock
  // starts again, such as MPEG-TS recordings put end to end) continues a
  // frame of the frame rate after that frame, and the frames after it keep
  // their spacing from there.
  void write(const Picture& frame, double seconds);
  // Flushes the encoder and closes the file. Throws Error(Output).
  void finish();
  [[nodiscard]] std::string codec() const;
  // Why the audio of `audio_from` is not copied: its codec, which the
  // container does not hold; or, whatever it holds, that it is not a regular
  // file (a pipe, which only the reader of its frames may read). Empty where
  // it is copied or there is none.
  [[nodiscard]] std::string audio_note() const;
  // That the colour description of the frames (VideoEncoding::colour) is not
  // written, and why: MPEG-4 Part 2 video outside an MP4, QuickTime or
  // Matroska file. Empty where it is written or there is none to write.
  [[nodiscard]] std::string colour_note() const;
  // Frames given to write(frame, seconds) that were left out: their time fell
  // on the frame before's tick of a container that counts time in frames.
  [[nodiscard]] std::int64_t frames_left_out() const noexcept;

  struct Impl;

 private:
  void write_at(const Picture& frame, std::int64_t pts, double seconds);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
