// The bytes of an image file, from the file or from memory, read at any
// offset: a read that would run past the end gives nothing, never bytes from
// outside. What the framing walkers (TIFF directories, PNG chunks) read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <vector>

namespace gpuhist::images {

class ByteSource {
 public:
  // The file at `path` (an unreadable one has no bytes).
  explicit ByteSource(const std::filesystem::path& path);
  // Bytes in memory, which must outlive the source.
  explicit ByteSource(std::span<const unsigned char> bytes) noexcept;

  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
  // Exactly `n` bytes at `at` into `out`, or false (past the end, unreadable).
  bool read(std::uint64_t at, std::size_t n, unsigned char* out);
  // The same into `out`, resized to `n` (emptied on false).
  bool read(std::uint64_t at, std::size_t n, std::vector<unsigned char>& out);

 private:
  std::optional<std::ifstream> file_;
  std::span<const unsigned char> memory_;
  std::uint64_t size_ = 0;
};

}  // namespace gpuhist::images
