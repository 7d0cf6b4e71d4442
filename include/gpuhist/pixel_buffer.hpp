// Owned memory for pixels: aligned and padded so that SIMD code (FFmpeg's
// scalers, OpenImageIO's readers) may read and write whole vectors at a row's
// end, and so that a device can import it as host memory.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <utility>

namespace gpuhist {

class PixelBuffer {
 public:
  // The start of every buffer is aligned to this many bytes (a page), and the
  // memory behind it runs to the next multiple of it, at least kPadding bytes
  // past size().
  static constexpr std::size_t kAlignment = 4096;
  static constexpr std::size_t kPadding = 64;

  PixelBuffer() noexcept = default;
  // `bytes` bytes, uninitialised. Throws std::bad_alloc when the memory cannot
  // be had; nothing is allocated then.
  explicit PixelBuffer(std::size_t bytes);
  PixelBuffer(const PixelBuffer& other);
  PixelBuffer& operator=(const PixelBuffer& other);
  // A buffer moved from is empty.
  PixelBuffer(PixelBuffer&& other) noexcept
      : data_(std::move(other.data_)), size_(std::exchange(other.size_, 0)) {}
  PixelBuffer& operator=(PixelBuffer&& other) noexcept {
    data_ = std::move(other.data_);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  ~PixelBuffer() = default;

  [[nodiscard]] std::byte* data() noexcept { return data_.get(); }
  [[nodiscard]] const std::byte* data() const noexcept { return data_.get(); }
  // The bytes asked for; the padding after them is not counted.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // The bytes that may be touched: size() rounded up past the padding.
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_of(size_); }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::span<std::byte> bytes() noexcept { return {data(), size_}; }
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {data(), size_}; }

  // The capacity of a buffer of `bytes` bytes.
  [[nodiscard]] static constexpr std::size_t capacity_of(std::size_t bytes) noexcept {
    return bytes == 0 ? 0 : (bytes + kPadding + kAlignment - 1) / kAlignment * kAlignment;
  }

 private:
  struct Free {
    void operator()(std::byte* p) const noexcept;
  };
  std::unique_ptr<std::byte[], Free> data_;
  std::size_t size_ = 0;
};

}  // namespace gpuhist
