// Image files read whole into memory by the readers that need no module
// (io/plain_jpeg.hpp, io/plain_png.hpp), into a buffer each decoding thread
// keeps from file to file: a fresh buffer a file costs a page fault every
// 4 KiB.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

namespace gpuhist::io {

// Whether `path` is a regular file this process may read (not a pipe or a
// device, which a reader would read once and a second reader find empty, or
// wait on).
[[nodiscard]] bool readable_regular_file(const std::filesystem::path& path);

// This thread's buffer for the length of a read (one at a time: a second
// read on the thread reuses the first's bytes); let go of when the read
// ends after a file over 16 MB.
class ThreadFileBuffer {
 public:
  ThreadFileBuffer() noexcept;
  ~ThreadFileBuffer();
  ThreadFileBuffer(const ThreadFileBuffer&) = delete;
  ThreadFileBuffer& operator=(const ThreadFileBuffer&) = delete;

  // The file at `path` read whole into the buffer, when it is a regular file
  // this process may read that starts with `signature`; empty otherwise (a
  // missing, unreadable or other file, which the module reads or words).
  // Valid until the next read on this thread. Throws std::bad_alloc (or
  // std::length_error) when memory runs out.
  [[nodiscard]] std::span<const unsigned char> read(const std::filesystem::path& path,
                                                    std::span<const unsigned char> signature);

 private:
  std::vector<unsigned char>& bytes_;
};

}  // namespace gpuhist::io
