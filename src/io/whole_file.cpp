#include "io/whole_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <system_error>

namespace gpuhist::io {
namespace {

constexpr std::size_t kKeptBytes = std::size_t{16} << 20;

std::vector<unsigned char>& thread_buffer() noexcept {
  static thread_local std::vector<unsigned char> bytes;
  return bytes;
}

}  // namespace

bool readable_regular_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::status(path, ec)) &&
         ::access(path.c_str(), R_OK) == 0;
}

ThreadFileBuffer::ThreadFileBuffer() noexcept : bytes_(thread_buffer()) {}

ThreadFileBuffer::~ThreadFileBuffer() {
  if (bytes_.capacity() > kKeptBytes) std::vector<unsigned char>().swap(bytes_);
}

std::span<const unsigned char> ThreadFileBuffer::read(const std::filesystem::path& path,
                                                      std::span<const unsigned char> signature) {
  bytes_.clear();
  if (!readable_regular_file(path)) return {};
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size < signature.size()) return {};
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> head(signature.size());
  if (!in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size())) ||
      !std::equal(head.begin(), head.end(), signature.begin())) {
    return {};
  }
  bytes_.resize(size);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(bytes_.data()), static_cast<std::streamsize>(size));
  bytes_.resize(static_cast<std::size_t>(in.gcount()));
  return bytes_;
}

}  // namespace gpuhist::io
