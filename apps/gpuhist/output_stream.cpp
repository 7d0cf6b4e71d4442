#include "output_stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <utility>

namespace gpuhist::cli {

bool DescriptorBuffer::write_all(const char* data, std::size_t size) {
  while (size > 0 && error_ == 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = n < 0 ? errno : ENOSPC;
      break;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return error_ == 0;
}

bool DescriptorBuffer::drain() {
  const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return ok;
}

bool DescriptorBuffer::make_room() {
  if (!lines_) return drain();
  const auto used = static_cast<std::size_t>(pptr() - pbase());
  const char* end_of_line = nullptr;
  for (const char* p = pptr(); p > pbase(); --p) {
    if (p[-1] == '\n') {
      end_of_line = p;
      break;
    }
  }
  if (end_of_line == nullptr) {
    if (buffer_.size() >= kMost) return drain();
    buffer_.resize(buffer_.size() * 2);  // a line longer than the buffer: kept whole
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    pbump(static_cast<int>(used));
    return true;
  }
  const auto whole = static_cast<std::size_t>(end_of_line - pbase());
  const bool ok = write_all(pbase(), whole);
  std::memmove(buffer_.data(), buffer_.data() + whole, used - whole);
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  pbump(static_cast<int>(used - whole));
  return ok;
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type c) {
  if (!make_room()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int DescriptorBuffer::sync() { return drain() ? 0 : -1; }

std::streamsize DescriptorBuffer::xsputn(const char* data, std::streamsize size) {
  auto n = static_cast<std::size_t>(size);
  while (n > 0) {
    if (pptr() == epptr() && !make_room()) return 0;
    const std::size_t part = std::min(n, static_cast<std::size_t>(epptr() - pptr()));
    std::memcpy(pptr(), data, part);
    pbump(static_cast<int>(part));
    data += part;
    n -= part;
  }
  return size;
}

OutputStream::OutputStream(const std::string& target, bool rows) {
  if (target.empty() || target == "-") {
    std::cout.flush();
    fd_ = STDOUT_FILENO;
  } else {
    file_.emplace(target);
    fd_ = ::open(file_->path().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) output_failed(target, std::strerror(errno));
  }
  buffer_.emplace(fd_, rows);
  stream_.rdbuf(&*buffer_);
}

OutputStream::~OutputStream() {
  stream_.rdbuf(nullptr);
  if (file_ && fd_ >= 0) ::close(fd_);
}

void OutputStream::finish() {
  stream_.flush();
  const std::string name = file_ ? file_->target().string() : "<stdout>";
  if (buffer_->error() != 0) output_failed(name, std::strerror(buffer_->error()));
  if (!stream_) output_failed(name, "write error");
  if (!file_) return;
  const int fd = std::exchange(fd_, -1);
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int error = errno;
    ::close(fd);
    output_failed(name, std::strerror(error));
  }
  if (::close(fd) != 0 && errno != EINTR) output_failed(name, std::strerror(errno));
  file_->commit();
}

}  // namespace gpuhist::cli
