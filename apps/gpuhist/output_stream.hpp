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
#include <vector>

#include "gpuhist/output_file.hpp"

namespace gpuhist::cli {

// A buffered stream onto a file descriptor that keeps the cause of a failed
// write (errno), which std::ofstream does not. With `lines`, a full buffer is
// written up to its last line's end, the rest kept (the buffer grows for a
// line longer than it, up to 64 MiB): rows cut short by a signal end with a
// whole row. Without (binary output), a full buffer is written whole.
class DescriptorBuffer final : public std::streambuf {
 public:
  DescriptorBuffer(int fd, bool lines) : fd_(fd), lines_(lines), buffer_(kStart) {
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
  static constexpr std::size_t kStart = std::size_t{1} << 16;
  static constexpr std::size_t kMost = std::size_t{64} << 20;
  bool drain();
  // Makes room in a full buffer: writes its whole lines, or grows it.
  bool make_room();
  bool write_all(const char* data, std::size_t size);
  int fd_;
  bool lines_;
  int error_ = 0;
  std::vector<char> buffer_;
};

class OutputStream {
 public:
  // Standard output for an empty `target` or "-". Throws Error(Output) naming the
  // file when its folder does not take it. `rows`: text written a line at a
  // time (DescriptorBuffer's lines), not binary.
  explicit OutputStream(const std::string& target, bool rows = true);
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
