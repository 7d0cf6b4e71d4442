#include "view/frame_source.hpp"

#include <string>
#include <utility>

#include "gpuhist/image_file.hpp"
#include "io/file_extension.hpp"

namespace gpuhist::view {
namespace {

bool is_still(const std::filesystem::path& path) {
  return lower_extension(path) != "gif" && has_image_extension(path, FormatSet::All);
}

}  // namespace

FrameSource::FrameSource(const std::filesystem::path& path, const LoadStill& load_still,
                         OnDamage on_damage) {
  if (is_still(path)) {
    // Shown as its EXIF orientation says (a phone's portrait photograph upright).
    still_ = upright(load_still ? load_still(path) : load_image(path));
    width_ = still_->width;
    height_ = still_->height;
    return;
  }
  reader_ = std::make_unique<VideoReader>(path);
  reader_->set_upright(true);  // shown as its display matrix says
  width_ = reader_->width();
  height_ = reader_->height();
  frames_ = std::make_unique<DecodeAhead>(*reader_, std::move(on_damage));
}

FrameSource::~FrameSource() = default;

bool FrameSource::toggle_pause(double now) {
  if (!is_video()) return false;
  paused_ = !paused_;
  if (!paused_) {
    // The frame waiting keeps its place in time; with none waiting, the next one read does.
    if (pending_) {
      clock_origin_ = now - pending_->time;
    } else {
      anchor_ = true;
    }
  }
  return true;
}

std::optional<VideoFrame> FrameSource::read() {
  if (following_) return std::exchange(following_, std::nullopt);
  if (drained_) return std::nullopt;
  std::optional<VideoFrame> frame = frames_->next();
  drained_ = !frame;
  return frame;
}

bool FrameSource::has_picture() {
  if (!is_video()) return started_ || still_.has_value();
  if (!pending_ && !started_) pending_ = read();
  return pending_.has_value() || started_;
}

std::optional<Image> FrameSource::next(double now, bool& ended) {
  if (still_) {
    if (started_) return std::nullopt;
    started_ = true;
    return std::move(still_);
  }
  if (!playing()) return std::nullopt;
  if (!pending_) {
    pending_ = read();
    if (!pending_) {
      ended_ = ended = true;
      return std::nullopt;
    }
  }
  if (anchor_) {
    clock_origin_ = now - pending_->time;
    anchor_ = false;
  }
  if (now < clock_origin_ + pending_->time) return std::nullopt;
  // Behind: while the frame after this one is due too, this one is skipped.
  for (;;) {
    following_ = read();
    if (!following_) break;
    // A stream whose clock starts again (recordings put end to end): the
    // frame after sets the clock anew, shown next.
    if (following_->time < pending_->time) {
      anchor_ = true;
      break;
    }
    if (now < clock_origin_ + following_->time) break;
    pending_ = std::exchange(following_, std::nullopt);
    ++skipped_;
  }
  started_ = true;
  Image frame = std::move(pending_->image);
  pending_.reset();
  return frame;
}

}  // namespace gpuhist::view
