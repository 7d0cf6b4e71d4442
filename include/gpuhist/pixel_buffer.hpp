// Owned memory for pixels: aligned and padded so that SIMD code (FFmpeg's
// scalers, OpenImageIO's readers) may read and write whole vectors at a row's
// end, and so that a device can import it as host memory. Buffers of 64 KiB
// or more are kept when freed (up to 8 of them, 256 MiB in all) for the next
// buffer of about their size, and those of a megabyte or more ask for huge
// pages: a folder of photographs or a video's frames then write to memory
// already mapped, instead of paying the kernel a page fault every 4 KiB
// (which allocators that return freed memory early, as Dask's workers are set
// up to, make the rule). Sanitizer builds keep nothing, so that every use
// after free is seen. The contents of a new buffer are undefined.
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
  // Whether freed buffers of at least kKeptFrom bytes are kept for reuse, and
  // how many bytes in all at most. Decided by the library's build, not the
  // caller's: never in a sanitizer build of the library, nor where the
  // environment sets GPUHIST_NO_BUFFER_REUSE (other than to 0) when the first
  // buffer is made, so that a sanitized program sees every use after free.
  [[nodiscard]] static bool keeps_freed() noexcept;
  static constexpr std::size_t kKeptFrom = std::size_t{64} << 10;
  static constexpr std::size_t kKeptBytes = std::size_t{256} << 20;

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
    std::size_t capacity;  // the bytes allocated, which a kept buffer may exceed
    void operator()(std::byte* p) const noexcept;
  };
  std::unique_ptr<std::byte[], Free> data_;
  std::size_t size_ = 0;
};

}  // namespace gpuhist
