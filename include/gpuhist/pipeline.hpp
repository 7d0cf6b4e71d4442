// Overlapping the stages of a video job: decoding and converting run ahead of
// the caller on threads of their own (DecodeAhead), writing runs behind it on another
// (WriteBehind), each through a bounded queue, so that decoding, counting and
// drawing on the device, and encoding work on different frames at once.
// Part of the gpuhist::io library.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "gpuhist/video_file.hpp"

namespace gpuhist {

// A first-in first-out queue of at most `capacity` items between two threads.
template <class T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // Waits for room; false (and the item dropped) once the queue is closed.
  bool push(T item) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    ready_.notify_one();
    return true;
  }

  // Waits for an item; nullopt once the queue is closed and empty.
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    room_.notify_one();
    return item;
  }

  // Waits up to `timeout` for an item or the close: true when pop() would
  // not wait.
  template <class Rep, class Period>
  bool wait_ready_for(const std::chrono::duration<Rep, Period>& timeout) {
    std::unique_lock lock(mutex_);
    return ready_.wait_for(lock, timeout, [&] { return closed_ || !items_.empty(); });
  }

  // No more pushes; pops drain what is queued, then end.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
    room_.notify_all();
  }

  // Closes and drops what is queued (a consumer that stopped early).
  void cancel() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    items_.clear();
    ready_.notify_all();
    room_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<T> items_;
  std::size_t capacity_;
  bool closed_ = false;
};

// Decodes `reader`'s frames on a thread of its own and converts them on
// another, each up to `depth` frames ahead, so that converting one frame does
// not keep the decoder's threads waiting for their next packets. Up to about
// 2 * depth + 2 decoded frames are held at once (Y'CbCr frames are the
// decoder's own). Damaged packets are reported through `on_damage`, called on
// the decoding thread, up to that many frames ahead of the caller.
class DecodeAhead {
 public:
  using OnDamage = std::function<void(const std::string&)>;
  DecodeAhead(VideoReader& reader, OnDamage on_damage, std::size_t depth = 3);
  DecodeAhead(const DecodeAhead&) = delete;
  DecodeAhead& operator=(const DecodeAhead&) = delete;
  DecodeAhead(DecodeAhead&&) = delete;
  DecodeAhead& operator=(DecodeAhead&&) = delete;
  ~DecodeAhead();  // stops decoding and converting and joins the threads

  // The next frame in order; nullopt after the last. Rethrows the error that
  // ended decoding or converting, after the frames before it.
  std::optional<VideoFrame> next();

  // Waits up to `timeout` for the next frame (or the end): true when next()
  // would not wait. A caller that must stay responsive (Python, hearing
  // Ctrl-C) waits in steps while a source stalls.
  template <class Rep, class Period>
  bool wait_for(const std::chrono::duration<Rep, Period>& timeout) {
    return frames_.wait_ready_for(timeout);
  }

 private:
  BoundedQueue<DecodedFrame> decoded_;
  BoundedQueue<VideoFrame> frames_;
  std::mutex decode_error_mutex_;
  std::exception_ptr decode_error_;  // the decoding thread's, set before it closes decoded_
  std::exception_ptr error_;         // set by the converting thread before it closes frames_
  std::thread decoder_, converter_;
};

// Calls `write` on a thread of its own for every item pushed, in order, up to
// `depth` items behind the caller.
template <class T>
class WriteBehind {
 public:
  explicit WriteBehind(std::function<void(T&)> write, std::size_t depth = 3)
      : items_(depth), write_(std::move(write)), thread_([this] { run(); }) {}
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;
  WriteBehind(WriteBehind&&) = delete;
  WriteBehind& operator=(WriteBehind&&) = delete;
  ~WriteBehind() {
    items_.cancel();
    if (thread_.joinable()) thread_.join();
  }

  // Queues an item. Rethrows the error of an earlier write, after which
  // nothing more is written.
  void push(T item) {
    if (!items_.push(std::move(item))) finish();
  }

  // Writes everything queued and joins the thread; rethrows a write's error.
  void finish() {
    items_.close();
    if (thread_.joinable()) thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void run() {
    try {
      while (auto item = items_.pop()) write_(*item);
    } catch (...) {
      error_ = std::current_exception();
      items_.cancel();
    }
  }

  BoundedQueue<T> items_;
  std::function<void(T&)> write_;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace gpuhist
