#include "gpuhist/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

// Temporary files not yet committed, for a signal handler to remove: a slot
// is claimed, its name written, then marked in use; the handler reads only
// slots in use.
constexpr std::size_t kSlots = 64;
constexpr std::size_t kNameBytes = 4096;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 claimed, 2 in use
  std::array<char, kNameBytes> name{};
};
std::array<Slot, kSlots> slots;

int claim_slot() {
  for (std::size_t i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (slots[i].state.compare_exchange_strong(expected, 1)) return static_cast<int>(i);
  }
  return -1;  // more outputs at once than slots: still written safely, not removed on a signal
}

// Creates the temporary file from `pattern` (mkstemps) with its name already
// in the slot, marked in use: mkstemps writes each name it tries before it
// creates the file, so a signal at any moment finds the file's name (or a name
// that does not exist) in the slot. Returns the descriptor; `pattern` becomes the name.
int create_published(int slot, std::string& pattern, int suffix) {
  if (slot < 0 || pattern.size() >= kNameBytes) return ::mkstemps(pattern.data(), suffix);
  Slot& s = slots[static_cast<std::size_t>(slot)];
  std::memcpy(s.name.data(), pattern.c_str(), pattern.size() + 1);
  s.state.store(2, std::memory_order_release);
  const int fd = ::mkstemps(s.name.data(), suffix);
  pattern.assign(s.name.data(), pattern.size());
  return fd;
}

void release_slot(int slot) {
  if (slot >= 0) slots[static_cast<std::size_t>(slot)].state.store(0, std::memory_order_release);
}

std::string cause_of(int error) { return std::generic_category().message(error); }

// The permissions a new file gets: 0666 less the process's umask.
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

}  // namespace

bool written_in_place(const std::filesystem::path& target) {
  struct stat info {};
  return ::stat(target.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
}

void output_failed(const std::filesystem::path& target, const std::string& cause) {
  throw Error(ErrorKind::Output, target.string() + ": cannot write: " + cause);
}

namespace {

// Whether a link may be followed as the kernel's protected_symlinks rule lets
// a process follow one: not a link in a sticky folder that everyone may write
// to (/tmp), owned by neither this user nor the folder's owner (someone
// else's link there would have the output made where they chose).
bool may_follow(const std::filesystem::path& link) {
  struct stat l {};
  struct stat d {};
  const std::filesystem::path folder = link.parent_path().empty() ? "." : link.parent_path();
  if (::lstat(link.c_str(), &l) != 0 || ::stat(folder.c_str(), &d) != 0) return false;
  const bool shared = (d.st_mode & S_ISVTX) != 0 && (d.st_mode & S_IWOTH) != 0;
  return !shared || l.st_uid == ::geteuid() || l.st_uid == d.st_uid;
}

}  // namespace

OutputFile::OutputFile(const std::filesystem::path& target) : target_(target) {
  struct stat info {};
  const bool exists = ::stat(target.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) {
    if (S_ISDIR(info.st_mode)) output_failed(target, "is a directory");
    in_place_ = true;
    path_ = target;
    return;
  }
  // A link to a file is written through: the file it names is replaced, the link kept;
  // a link to no file yet makes the file it names (its folder must exist).
  std::error_code ec;
  if (std::filesystem::is_symlink(target, ec) && !may_follow(target)) {
    output_failed(target,
                  "a link in a folder everyone may write to, owned by another user: "
                  "not followed");
  }
  if (exists && std::filesystem::is_symlink(target, ec)) {
    const std::filesystem::path resolved = std::filesystem::canonical(target, ec);
    if (!ec) replaced_ = resolved;
  } else if (!exists && std::filesystem::is_symlink(target, ec)) {
    std::filesystem::path named = target;
    for (int hops = 0; hops < 40 && std::filesystem::is_symlink(named, ec); ++hops) {
      const std::filesystem::path next = std::filesystem::read_symlink(named, ec);
      if (ec) break;
      named = next.is_absolute() ? next : named.parent_path() / next;
    }
    if (std::filesystem::is_symlink(named, ec)) output_failed(target, cause_of(ELOOP));
    const std::filesystem::path folder = named.parent_path().empty() ? "." : named.parent_path();
    if (!std::filesystem::is_directory(folder, ec)) output_failed(target, cause_of(ENOENT));
    replaced_ = named;
  }
  const std::filesystem::path& real = replaced_.empty() ? target : replaced_;
  const std::filesystem::path folder = real.parent_path();
  // .NAME-XXXXXX.EXT, the name cut short where the whole would pass the
  // longest a file name may be (255 bytes): a target of 243 bytes or more
  // has a temporary name of fewer of its bytes. The extension is kept (a
  // writer that writes the file itself picks its format by it).
  constexpr std::size_t kLongestName = 255;
  constexpr std::size_t kAdded = 1 + 7;  // the dot, and -XXXXXX
  std::string extension = real.extension().string();
  if (extension.size() + kAdded + 1 > kLongestName) extension.clear();
  std::string kept = real.filename().string();
  kept.resize(std::min(kept.size(), kLongestName - kAdded - extension.size()));
  std::string name = ".";
  name.append(kept).append("-XXXXXX").append(extension);
  std::string pattern = ((folder.empty() ? std::filesystem::path(".") : folder) / name).string();
  slot_ = claim_slot();
  const int fd = create_published(slot_, pattern, static_cast<int>(extension.size()));
  if (fd < 0) {
    const int error = errno;
    release_slot(slot_);
    output_failed(target, cause_of(error));
  }
  // A file that is replaced keeps its permissions; a new one gets 0666 less the umask.
  ::fchmod(fd, exists ? (info.st_mode & 07777) : new_file_mode());
  ::close(fd);
  path_ = pattern;
}

OutputFile::~OutputFile() {
  if (!committed_ && !in_place_) ::unlink(path_.c_str());
  release_slot(slot_);
}

void OutputFile::write(std::span<const std::byte> bytes) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) output_failed(target_, cause_of(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      ::close(fd);
      output_failed(target_, cause_of(error));
    }
    done += static_cast<std::size_t>(n);
  }
  // A regular file's data is on the disk before it takes the target's name.
  if (!in_place_ && ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    output_failed(target_, cause_of(error));
  }
  if (::close(fd) != 0 && errno != EINTR) output_failed(target_, cause_of(errno));
}

void OutputFile::commit() {
  if (committed_) return;
  committed_ = true;
  if (in_place_) return;
  const std::filesystem::path& real = replaced_.empty() ? target_ : replaced_;
  if (::rename(path_.c_str(), real.c_str()) != 0) {
    const int error = errno;
    ::unlink(path_.c_str());
    output_failed(target_, cause_of(error));
  }
}

void remove_unfinished_outputs() noexcept {
  for (Slot& slot : slots) {
    if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.name.data());
  }
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace gpuhist
