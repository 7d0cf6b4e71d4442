// A file in memory for a writer that takes only a file's name and does not
// report its own failed writes (OpenImageIO 2.4's SGI and FITS writers): it
// writes there, and its bytes then reach the disk through checked writes.
#pragma once

#include <string>
#include <vector>

namespace gpuhist::images {

class MemoryFile {
 public:
  // An anonymous file in memory; opened() is false where the system has none.
  MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  ~MemoryFile();

  [[nodiscard]] bool opened() const noexcept { return fd_ >= 0; }
  // A name that opens it ("/proc/self/fd/N"), for the writer.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  // Its bytes, from the start, into `bytes`; false (and errno set) when they
  // cannot be read.
  bool read_all(std::vector<unsigned char>& bytes) const;

 private:
  int fd_ = -1;
  std::string name_;
};

}  // namespace gpuhist::images
