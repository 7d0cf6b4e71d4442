// Decoding a list of image files on several threads, handed over in list
// order: at most a bounded number of images are decoded ahead of the caller,
// so memory is bounded by the window, not by the list. Part of the
// gpuhist::io library.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "gpuhist/image.hpp"

namespace gpuhist {

class DecodeFiles {
 public:
  using Load = std::function<Image(const std::filesystem::path&)>;

  // Starts `threads` decoding threads (0: one per core; never more than the
  // files) that call `load` on the files in order, each keeping at most
  // `ahead` images (0: twice the threads) decoded and not yet taken. `load`
  // runs on those threads, several at once, and must be safe to. Where fewer
  // threads can be started (the process's limit), those started decode, or
  // none at all: next() then decodes each file itself.
  DecodeFiles(std::vector<std::filesystem::path> files, Load load, unsigned threads = 0,
              std::size_t ahead = 0);
  DecodeFiles(const DecodeFiles&) = delete;
  DecodeFiles& operator=(const DecodeFiles&) = delete;
  DecodeFiles(DecodeFiles&&) = delete;
  DecodeFiles& operator=(DecodeFiles&&) = delete;
  ~DecodeFiles();  // stops the threads (a load under way finishes) and joins them

  // The next file's image, in list order, waiting for it; rethrows what its
  // `load` threw (the file after it comes next); nullopt after the last.
  [[nodiscard]] std::optional<Image> next();

  // How many decoding threads run (0: next() decodes).
  [[nodiscard]] unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()); }

 private:
  struct Slot {
    bool done = false;
    std::optional<Image> image;
    std::exception_ptr error;
  };
  void work();

  const std::vector<std::filesystem::path> files_;
  const Load load_;
  std::size_t ahead_ = 1;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Slot> window_;  // files taken_ .. taken_ + window_.size() - 1
  std::size_t taken_ = 0;    // files handed to the caller
  std::size_t claimed_ = 0;  // files a thread has started on
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gpuhist
