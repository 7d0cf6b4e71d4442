#include "gpuhist/pipeline.hpp"

#include <mutex>

namespace gpuhist {

DecodeAhead::DecodeAhead(VideoReader& reader, OnDamage on_damage, std::size_t depth)
    : decoded_(depth), frames_(depth) {
  decoder_ = std::thread([this, &reader, on_damage = std::move(on_damage)] {
    try {
      DecodedFrame frame;
      while (reader.decode(frame, on_damage)) {
        if (!decoded_.push(std::move(frame))) return;  // stopped
        frame = DecodedFrame{};
      }
    } catch (...) {
      const std::lock_guard lock(decode_error_mutex_);
      decode_error_ = std::current_exception();
    }
    decoded_.close();
  });
  try {
    converter_ = std::thread([this, &reader] {
      try {
        while (std::optional<DecodedFrame> decoded = decoded_.pop()) {
          VideoFrame frame;
          reader.convert(*decoded, frame);
          if (!frames_.push(std::move(frame))) {  // the caller stopped
            decoded_.cancel();
            return;
          }
        }
        // The decoder's error, if it ended with one: set before it closed the queue.
        const std::lock_guard lock(decode_error_mutex_);
        error_ = decode_error_;
      } catch (...) {
        error_ = std::current_exception();
        decoded_.cancel();  // the decoding thread stops at its next frame
      }
      frames_.close();
    });
  } catch (...) {
    decoded_.cancel();  // no thread to take the frames: the decoding one stops
    decoder_.join();
    throw;
  }
}

DecodeAhead::~DecodeAhead() {
  frames_.cancel();
  decoded_.cancel();
  if (converter_.joinable()) converter_.join();
  if (decoder_.joinable()) decoder_.join();
}

std::optional<VideoFrame> DecodeAhead::next() {
  std::optional<VideoFrame> frame = frames_.pop();
  // The queue closes after error_ is set, under its mutex: the pop that ends sees it.
  if (!frame && error_) std::rethrow_exception(error_);
  return frame;
}

}  // namespace gpuhist
