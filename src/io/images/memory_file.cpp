#include "io/images/memory_file.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gpuhist::images {

MemoryFile::MemoryFile() : fd_(::memfd_create("gpuhist-encoded", MFD_CLOEXEC)) {
  if (fd_ < 0) return;
  try {
    name_ = "/proc/self/fd/" + std::to_string(fd_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
  // Without /proc the name opens nothing: write to the file itself instead.
  if (::access(name_.c_str(), W_OK) != 0) {
    ::close(fd_);
    fd_ = -1;
    name_.clear();
  }
}

MemoryFile::~MemoryFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool MemoryFile::read_all(std::vector<unsigned char>& bytes) const {
  struct stat st {};
  if (fd_ < 0 || ::fstat(fd_, &st) != 0) return false;
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // shorter than it said
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace gpuhist::images
