// What the viewer shows: one still picture, or a video decoded ahead on its
// own thread whose frames come out at their presentation times.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gpuhist/image.hpp"
#include "gpuhist/pipeline.hpp"
#include "gpuhist/video_file.hpp"

namespace gpuhist::view {

class FrameSource {
 public:
  using LoadStill = std::function<Image(const std::filesystem::path&)>;
  using OnDamage = std::function<void(const std::string&)>;

  // Files with an extension of a still-image format (GIFs aside: FFmpeg
  // plays them) are read by `load_still`; anything else is opened as a video
  // whose damaged packets are reported to `on_damage`. Throws as they do.
  FrameSource(const std::filesystem::path& path, const LoadStill& load_still, OnDamage on_damage);
  FrameSource(const FrameSource&) = delete;
  FrameSource& operator=(const FrameSource&) = delete;
  FrameSource(FrameSource&&) = delete;
  FrameSource& operator=(FrameSource&&) = delete;
  ~FrameSource();

  [[nodiscard]] std::uint32_t width() const noexcept { return width_; }
  [[nodiscard]] std::uint32_t height() const noexcept { return height_; }
  [[nodiscard]] bool is_video() const noexcept { return frames_ != nullptr; }
  // The video's reader (null for a still picture): its errors so far.
  [[nodiscard]] const VideoReader* reader() const noexcept { return reader_.get(); }
  // A video neither paused nor at its end: the loop polls for its frames.
  [[nodiscard]] bool playing() const noexcept { return is_video() && !paused_ && !ended_; }

  // Pauses or resumes a video (false for a still picture); the frame waiting
  // keeps its place in time. `now` in steady seconds.
  bool toggle_pause(double now);
  [[nodiscard]] bool paused() const noexcept { return paused_; }

  // The next picture to show, as read: the still picture on the first call;
  // a video frame once its time has come (8- or 16-bit RGB). nullopt when
  // none is due; `ended` is set true on the call that finds the video's end.
  // A frame whose successor is due too is skipped (counted in skipped()):
  // where drawing or decoding falls behind, fewer frames are shown, on time,
  // rather than every frame later and later.
  [[nodiscard]] std::optional<Image> next(double now, bool& ended);
  // Whether there is a picture to show: a still picture, or a video's first
  // frame, waited for (decoded). False for a stream of which no frame decodes.
  [[nodiscard]] bool has_picture();
  // Frames skipped to keep time.
  [[nodiscard]] std::int64_t skipped() const noexcept { return skipped_; }

 private:
  // The next frame decoded: the one read ahead first, if any.
  std::optional<VideoFrame> read();

  std::optional<Image> still_;
  std::unique_ptr<VideoReader> reader_;
  std::unique_ptr<DecodeAhead> frames_;
  std::optional<VideoFrame> pending_;    // decoded, waiting for its time
  std::optional<VideoFrame> following_;  // the frame after it, read to see whether it is due
  bool drained_ = false;                 // the decoder has given its last frame
  double clock_origin_ = 0;              // steady seconds at which video time 0 is shown
  bool anchor_ = true;  // the next frame read sets the clock (at the start, after a pause)
  std::int64_t skipped_ = 0;
  bool started_ = false, paused_ = false, ended_ = false;
  std::uint32_t width_ = 0, height_ = 0;
};

}  // namespace gpuhist::view
