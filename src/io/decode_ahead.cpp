#include "gpuhist/pipeline.hpp"

namespace gpuhist {

DecodeAhead::DecodeAhead(VideoReader& reader, OnDamage on_damage, std::size_t depth)
    : frames_(depth), thread_([this, &reader, on_damage = std::move(on_damage)] {
        try {
          VideoFrame frame;
          while (reader.next(frame, on_damage)) {
            if (!frames_.push(std::move(frame))) return;  // the caller stopped
            frame = VideoFrame{};
          }
        } catch (...) {
          error_ = std::current_exception();
        }
        frames_.close();
      }) {}

DecodeAhead::~DecodeAhead() {
  frames_.cancel();
  if (thread_.joinable()) thread_.join();
}

std::optional<VideoFrame> DecodeAhead::next() {
  std::optional<VideoFrame> frame = frames_.pop();
  // The queue closes after error_ is set, under its mutex: the pop that ends sees it.
  if (!frame && error_) std::rethrow_exception(error_);
  return frame;
}

}  // namespace gpuhist
