#include "io/images/byte_source.hpp"

#include <algorithm>
#include <system_error>

namespace gpuhist::images {

ByteSource::ByteSource(const std::filesystem::path& path)
    : file_(std::in_place, path, std::ios::binary) {
  std::error_code ec;
  size_ = std::filesystem::file_size(path, ec);
  if (ec || !*file_) size_ = 0;
}

ByteSource::ByteSource(std::span<const unsigned char> bytes) noexcept
    : memory_(bytes), size_(bytes.size()) {}

bool ByteSource::read(std::uint64_t at, std::size_t n, unsigned char* out) {
  if (at > size_ || n > size_ - at) return false;
  if (!file_) {
    std::copy_n(memory_.begin() + static_cast<std::ptrdiff_t>(at), n, out);
    return true;
  }
  file_->clear();
  file_->seekg(static_cast<std::streamoff>(at));
  file_->read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(file_->gcount()) == n;
}

bool ByteSource::read(std::uint64_t at, std::size_t n, std::vector<unsigned char>& out) {
  if (at > size_ || n > size_ - at) {
    out.clear();
    return false;
  }
  out.resize(n);
  if (!read(at, n, out.data())) {
    out.clear();
    return false;
  }
  return true;
}

}  // namespace gpuhist::images
