// Reading video files frame by frame through FFmpeg's libraries, as pixels
// gpuhist can count. Part of the gpuhist::io library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "gpuhist/image_file.hpp"

namespace gpuhist {

// One decoded frame: RGB8 for sources of 8 bits per sample, RGB16 for deeper
// ones (10-bit video goes through the 16-bit path).
struct VideoFrame {
  std::int64_t index = 0;  // 0, 1, 2, ... in decoding order of the frames delivered
  double time = 0.0;       // presentation time in seconds
  Image image;
};

class VideoReader {
 public:
  // Opens the first video stream of a file. Throws Error(Input) naming the file
  // for a missing or unreadable file, no video stream, no decoder for it, or
  // frames of more than `max_pixels` (checked before any frame is decoded,
  // and for every frame, whose size may change).
  explicit VideoReader(const std::filesystem::path& path,
                       std::uint64_t max_pixels = kDefaultMaxPixels);
  VideoReader(const VideoReader&) = delete;
  VideoReader& operator=(const VideoReader&) = delete;
  VideoReader(VideoReader&&) noexcept;
  VideoReader& operator=(VideoReader&&) noexcept;
  ~VideoReader();

  [[nodiscard]] std::uint32_t width() const noexcept;
  [[nodiscard]] std::uint32_t height() const noexcept;
  [[nodiscard]] double frame_rate() const noexcept;            // 0 when unknown
  [[nodiscard]] std::int64_t frame_estimate() const noexcept;  // 0 when unknown
  [[nodiscard]] std::string codec() const;
  // The errors the demuxer and decoder met so far (a file that ends early, a
  // damaged slice the decoder concealed or a frame it dropped), and the first
  // of them in FFmpeg's words. Nothing is printed while decoding.
  [[nodiscard]] std::int64_t errors() const noexcept;
  [[nodiscard]] std::string first_error() const;

  // Decodes the next frame into `frame`; false at the end of the stream. A
  // packet the decoder rejects is reported through `on_damage` (a one-line
  // cause) and skipped; the frames after it are still delivered.
  bool next(VideoFrame& frame, const std::function<void(const std::string&)>& on_damage = {});

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
