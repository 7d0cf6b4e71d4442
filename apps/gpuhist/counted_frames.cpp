#include "counted_frames.hpp"

#include <utility>
#include <vector>

namespace gpuhist::cli {

void CountedFrames::hand_over(Histogram& histogram, const CountedFrame& done) {
  VideoFrame frame = std::move(pending_.front());
  pending_.pop_front();
  done(frame, histogram);
}

void CountedFrames::push(VideoFrame frame, const CountedFrame& done) {
  const Image& image = frame.image;
  if (stream_ && (width_ != image.width || height_ != image.height || format_ != image.format)) {
    finish(done);
  }
  if (!stream_) {
    stream_.emplace(context_, image.width, image.height, image.format, options_, run_,
                    stream_options_);
    width_ = image.width;
    height_ = image.height;
    format_ = image.format;
  }
  std::optional<Histogram> counted = stream_->push(image.view());
  pending_.push_back(std::move(frame));
  if (counted) hand_over(*counted, done);
}

void CountedFrames::finish(const CountedFrame& done) {
  if (!stream_) return;
  std::vector<Histogram> rest = stream_->finish();
  stream_.reset();
  for (Histogram& h : rest) hand_over(h, done);
}

}  // namespace gpuhist::cli
