// Where a command's rows go: standard output, or a file (-o) written so that
// it is complete or absent (gpuhist/output_file.hpp). Every write is checked:
// a full disk is reported with its cause; a closed pipe ends the process by
// SIGPIPE, as it does any command-line filter.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>

#include "gpuhist/output_file.hpp"

namespace gpuhist::cli {

// A buffered stream onto a file descriptor that keeps the cause of a failed
// write (errno), which std::ofstream does not.
class DescriptorBuffer final : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  DescriptorBuffer(const DescriptorBuffer&) = delete;
  DescriptorBuffer& operator=(const DescriptorBuffer&) = delete;
  ~DescriptorBuffer() override = default;
  // 0 while every write succeeded, else the errno of the first that failed.
  [[nodiscard]] int error() const noexcept { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;

 private:
  bool drain();
  bool write_all(const char* data, std::size_t size);
  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_{};
};

class OutputStream {
 public:
  // Standard output for an empty `target` or "-". Throws Error(Output) naming the
  // file when its folder does not take it.
  explicit OutputStream(const std::string& target);
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;
  ~OutputStream();

  [[nodiscard]] std::ostream& stream() noexcept { return stream_; }

  // Flushes and closes, then gives the file its name. Throws Error(Output)
  // naming the file (or "<stdout>") and the cause when a write failed.
  void finish();

 private:
  std::optional<OutputFile> file_;
  int fd_ = -1;
  std::optional<DescriptorBuffer> buffer_;
  std::ostream stream_{nullptr};
};

}  // namespace gpuhist::cli
