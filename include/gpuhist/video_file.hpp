// Reading video files frame by frame through FFmpeg's libraries, as pixels
// gpuhist can count. Part of the gpuhist::io library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpuhist/image_file.hpp"
#include "gpuhist/pixel_aspect.hpp"
#include "gpuhist/video_colour.hpp"

struct AVFrame;  // FFmpeg's

namespace gpuhist {

// What a reader delivers: RGB (converted as the ffmpeg command line converts)
// or the Y', Cb and Cr planes as the decoder produced them, with no conversion.
enum class FrameSpace : std::uint8_t { Rgb, YCbCr };

// The most decoding threads a VideoReader is given when asked for more.
inline constexpr unsigned kMostDecodeThreads = 64;

// One decoded frame. Rgb: `image` is RGB8 for sources of 8 bits per sample,
// RGB16 for deeper ones (10-bit video goes through the 16-bit path). YCbCr:
// `planes` views Y' (full size), then Cb and Cr at their subsampled size
// (none for a grey stream), as Grey8 for 8-bit streams and Grey16 for deeper
// ones, whose levels are shifted up to fill 16 bits (level L of a 10-bit
// stream is L * 64), so that `bins` bins put 2^depth / bins levels in each.
// The views read `buffers`: the decoder's own frame, shared with it and never
// copied, for streams of 8 or 16 bits; a copy for the depths between (shifted)
// and for planes whose rows the decoder laid out otherwise than down, aligned.
// They stay valid while the frame (or a copy of `buffers`) lives.
struct VideoFrame {
  std::int64_t index = 0;  // 0, 1, 2, ... in decoding order of the frames converted
  double time = 0.0;       // presentation time in seconds
  Image image{};
  std::vector<ImageView> planes;
  std::shared_ptr<const void> buffers;  // YCbCr: what `planes` read
  VideoColour colour;        // as this frame declares it
  std::string pixel_format;  // YCbCr: FFmpeg's name of the decoded format
  std::uint32_t depth = 8;   // YCbCr: bits per sample as decoded
};

// A frame as the decoder delivered it, not yet converted (VideoReader::decode).
// Holding it holds the decoder's buffers.
struct DecodedFrame {
  double time = 0.0;  // presentation time in seconds
  std::shared_ptr<AVFrame> frame;
};

class VideoReader {
 public:
  // Opens the first video stream of a file. Throws Error(Input) naming the file
  // for a missing or unreadable file, no video stream, no decoder for it, or
  // frames of more than `max_pixels` (checked before any frame is decoded,
  // and for every frame, whose size may change).
  // With FrameSpace::YCbCr, also for a stream that is not planar Y'CbCr or
  // grey (8 to 16 bits, little-endian): NV12, packed 4:2:2, RGB, palettes.
  // FFmpeg decodes on `decode_threads` threads, as `ffmpeg -threads N`; 0:
  // one per core the process may use, at most 16. (A damaged stream's
  // concealed frames depend on them; one thread decodes the same everywhere.)
  explicit VideoReader(const std::filesystem::path& path,
                       std::uint64_t max_pixels = kDefaultMaxPixels,
                       FrameSpace space = FrameSpace::Rgb, unsigned decode_threads = 0);
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;
  VideoReader(VideoReader&&) noexcept;
  VideoReader& operator=(VideoReader&&) noexcept;
  ~VideoReader();

  // The size of the frames delivered: turned with set_upright(true) (RGB).
  [[nodiscard]] std::uint32_t width() const noexcept;
  [[nodiscard]] std::uint32_t height() const noexcept;
  // The clockwise turn (0, 90, 180 or 270 degrees) that shows the frames
  // upright, as the stream's display matrix declares it (a phone's portrait
  // clip is often coded landscape and turned 90): the ffmpeg command line
  // turns its frames so. Other angles are taken as 0.
  [[nodiscard]] int rotation() const noexcept;
  // The samples of RGB frames: 8-bit, or 16-bit for streams of more bits.
  [[nodiscard]] SampleType rgb_sample() const noexcept;
  // Whether the turned frames are then mirrored left to right, where the
  // display matrix mirrors the picture: a matrix that mirrors x alone is
  // rotation() 0 and mirrored, though ffprobe calls it rotation=-180.
  [[nodiscard]] bool mirrored() const noexcept;
  // With true (before the first frame is decoded), RGB frames are delivered
  // as shown rather than as coded: turned by rotation(), and mirrored where
  // the display matrix mirrors them, as the ffmpeg command line (5.1) does;
  // width() and height() then give the size shown. The matrix read is the
  // stream's, not one a frame carries. Counts are the same either way; what
  // shows or writes frames wants them upright. Y'CbCr planes are never
  // turned.
  void set_upright(bool upright);
  // Frames a second on average (the stream's average; 0 when unknown).
  [[nodiscard]] double frame_rate() const noexcept;
  // The rate on whose frames the stream's times fall, as the ffmpeg command
  // line guesses it (its "tbr"; 0 when unknown): a variable-rate clip's
  // average is lower (a screen recording that pauses), its base rate is not.
  // A video written from these frames is timed in frames of this rate.
  [[nodiscard]] double base_rate() const noexcept;
  // Whether the file has an audio stream beside the video.
  [[nodiscard]] bool has_audio() const noexcept;
  // The shape of the pixels delivered, as the stream declares it: turned
  // with the frames by set_upright(true).
  [[nodiscard]] PixelAspect pixel_aspect() const;
  // The container's start time in seconds (0 when unknown): frames' times
  // count from the stream's clock, which need not start at 0 (an MPEG-TS
  // capture), and a video written from them starts where this does.
  [[nodiscard]] double start_time() const noexcept;
  [[nodiscard]] std::int64_t frame_estimate() const noexcept;  // 0 when unknown
  [[nodiscard]] std::string codec() const;
  // The colour description of the stream's parameters, before any frame is
  // decoded (each frame carries its own).
  [[nodiscard]] VideoColour colour() const;
  // The errors the demuxer and decoder met so far (a file that ends early, a
  // damaged slice the decoder concealed or a frame it dropped), and the first
  // of them in FFmpeg's words. Nothing is printed while decoding.
  [[nodiscard]] std::int64_t errors() const noexcept;
  [[nodiscard]] std::string first_error() const;
  // What may explain errors, or "": an MP4 or QuickTime file read from a pipe
  // whose index (moov) comes after its frames cannot be read as it streams.
  [[nodiscard]] std::string error_hint() const;

  // Decodes the next frame into `frame`; false at the end of the stream. A
  // packet the decoder rejects is reported through `on_damage` (a one-line
  // cause) and skipped; the frames after it are still delivered.
  bool next(VideoFrame& frame, const std::function<void(const std::string&)>& on_damage = {});

  // next() in two steps, which may run on two threads, so that converting a
  // frame does not hold up feeding the decoder: decode() delivers the next
  // frame as decoded (false at the end; damage as for next()), convert()
  // turns it into `frame` and lets go of it. Each may be called by one thread
  // at a time; frames keep the order decode() gave them.
  bool decode(DecodedFrame& frame, const std::function<void(const std::string&)>& on_damage = {});
  void convert(DecodedFrame& decoded, VideoFrame& frame);

  struct Impl;

 private:
  [[nodiscard]] bool turned_across() const noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
