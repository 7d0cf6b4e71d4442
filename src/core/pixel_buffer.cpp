#include "gpuhist/pixel_buffer.hpp"

#include <cstring>
#include <limits>
#include <new>

namespace gpuhist {

PixelBuffer::PixelBuffer(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  if (bytes > std::numeric_limits<std::size_t>::max() - kPadding - kAlignment) {
    throw std::bad_alloc();
  }
  data_.reset(static_cast<std::byte*>(
      ::operator new[](capacity_of(bytes), std::align_val_t{kAlignment})));
}

PixelBuffer::PixelBuffer(const PixelBuffer& other) : PixelBuffer(other.size_) {
  if (size_ != 0) std::memcpy(data(), other.data(), size_);
}

PixelBuffer& PixelBuffer::operator=(const PixelBuffer& other) {
  if (this != &other) *this = PixelBuffer(other);
  return *this;
}

void PixelBuffer::Free::operator()(std::byte* p) const noexcept {
  ::operator delete[](p, std::align_val_t{kAlignment});
}

}  // namespace gpuhist
