#include "gpuhist/decode_files.hpp"

#include <algorithm>
#include <utility>

#include "core/cores.hpp"

namespace gpuhist {

DecodeFiles::DecodeFiles(std::vector<std::filesystem::path> files, Load load, unsigned threads,
                         std::size_t ahead)
    : files_(std::move(files)), load_(std::move(load)) {
  if (threads == 0) threads = core_count();
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, files_.size()));
  ahead_ = std::max<std::size_t>(1, ahead == 0 ? 2 * std::size_t{threads} : ahead);
  workers_.reserve(threads);
  try {
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  } catch (...) {
    // No more threads to be had (the process's limit, or memory for their
    // stacks): the files are decoded by those started, or by next() itself,
    // and as many held ahead as for the threads there are.
    if (ahead == 0) {
      const std::lock_guard lock(mutex_);
      ahead_ = std::max<std::size_t>(1, 2 * workers_.size());
    }
  }
}

DecodeFiles::~DecodeFiles() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void DecodeFiles::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(
        lock, [&] { return stopping_ || claimed_ == files_.size() || claimed_ < taken_ + ahead_; });
    if (stopping_ || claimed_ == files_.size()) return;
    const std::size_t index = claimed_++;
    window_.resize(std::max(window_.size(), index - taken_ + 1));
    lock.unlock();
    Slot result;
    try {
      result.image.emplace(load_(files_[index]));
    } catch (...) {
      result.error = std::current_exception();
    }
    result.done = true;
    lock.lock();
    // The caller waits for this file: it has not been taken, so its slot is
    // still in the window.
    window_[index - taken_] = std::move(result);
    changed_.notify_all();
  }
}

std::optional<Image> DecodeFiles::next() {
  if (workers_.empty()) {  // no thread could be started: each file decoded here, in turn
    if (taken_ == files_.size()) return std::nullopt;
    return load_(files_[taken_++]);
  }
  std::unique_lock lock(mutex_);
  if (taken_ == files_.size()) return std::nullopt;
  changed_.wait(lock, [&] { return !window_.empty() && window_.front().done; });
  Slot slot = std::move(window_.front());
  window_.pop_front();
  ++taken_;
  lock.unlock();
  changed_.notify_all();
  if (slot.error) std::rethrow_exception(slot.error);
  return std::move(slot.image);
}

}  // namespace gpuhist
