// Writing RGB8 frames to a video file through FFmpeg's libraries: H.264 where
// the encoder exists, otherwise MPEG-4 Part 2. Part of the gpuhist::io library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "gpuhist/render.hpp"

namespace gpuhist {

class VideoWriter {
 public:
  // Opens `path` (the container follows the extension) for frames of
  // width x height (even numbers) at `frame_rate`. With `audio_from`, the first
  // audio stream of that file is copied in, packet for packet, interleaved by
  // time with the frames. Throws Error(Output).
  VideoWriter(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
              double frame_rate, const std::filesystem::path& audio_from = {});
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;
  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;
  ~VideoWriter();

  // Encodes one frame (RGBA8 rows, alpha ignored). Throws Error(Output).
  void write(const Picture& frame);
  // Flushes the encoder and closes the file. Throws Error(Output).
  void finish();
  [[nodiscard]] std::string codec() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpuhist
