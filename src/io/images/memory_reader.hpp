// The bytes of an image file held in memory, as an OpenImageIO reader reads
// them: every read outside them gives nothing. OpenImageIO's own IOMemReader
// (2.4) copies from before its buffer when a reader asks for a negative
// offset, as its DPX reader did for a row padding of 0xFFFFFF00 (a
// heap-buffer-overflow the fuzzer found); through this proxy no header
// field of any format can make a reader read outside the file. It is an
// IOMemReader still ("memreader"), so that the JPEG reader, which hands the
// whole buffer to libjpeg's bounded memory source, takes it as before.
#pragma once

#include <OpenImageIO/filesystem.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpuhist::images {

class MemoryReader final : public OIIO::Filesystem::IOMemReader {
 public:
  // `data` must outlive the reader.
  MemoryReader(const unsigned char* data, std::size_t size) : IOMemReader(data, size) {}

  using IOProxy::seek;
  // Any position at or past the start; reads past the end give nothing.
  bool seek(std::int64_t offset) override {
    if (offset < 0) return false;
    m_pos = offset;
    return true;
  }
  std::size_t read(void* buffer, std::size_t bytes) override {
    const std::size_t got = pread(buffer, bytes, m_pos);
    m_pos += static_cast<std::int64_t>(got);
    return got;
  }
  // The bytes of [offset, offset + bytes) that lie in the file.
  std::size_t pread(void* buffer, std::size_t bytes, std::int64_t offset) override {
    const auto size = static_cast<std::size_t>(m_buf.size());
    if (offset < 0 || static_cast<std::uint64_t>(offset) >= size || bytes == 0) return 0;
    const auto from = static_cast<std::size_t>(offset);
    const std::size_t count = std::min(bytes, size - from);
    std::memcpy(buffer, m_buf.data() + from, count);
    return count;
  }
};

}  // namespace gpuhist::images
