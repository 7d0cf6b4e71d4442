#include "gpuhist/pixel_buffer.hpp"

#include "core/pixel_store.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <string_view>
#include <vector>

namespace gpuhist {
namespace {

constexpr std::align_val_t kAlign{PixelBuffer::kAlignment};

// Buffers from kKept on are kept when freed for the next buffer of about their
// size, and from kHuge on their pages are asked for as huge pages. Touching fresh memory
// costs the kernel a fault a page (on virtual machines that return freed
// memory to their host, about as long as decoding the pixels written there),
// and a folder of photographs or a video's frames ask for the same sizes
// again and again.
constexpr std::size_t kKept = PixelBuffer::kKeptFrom;
constexpr std::size_t kHuge = std::size_t{1} << 20;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// At most this many bytes are kept free, in at most kKeptBuffers buffers; a
// larger buffer is returned at once.
constexpr std::size_t kKeptBytes = PixelBuffer::kKeptBytes;
constexpr std::size_t kKeptBuffers = 8;

struct Kept {
  std::byte* data;
  std::size_t capacity;
};

class Recycler {
 public:
  Recycler() = default;
  Recycler(const Recycler&) = delete;
  Recycler& operator=(const Recycler&) = delete;
  ~Recycler() {
    for (std::size_t i = 0; i < count_; ++i) ::operator delete[](kept_[i].data, kAlign);
  }

  // A kept buffer of at least `capacity` bytes and not much more, or null.
  std::byte* take(std::size_t capacity, std::size_t& taken_capacity) {
    const std::lock_guard lock(mutex_);
    std::size_t best = count_;
    for (std::size_t i = 0; i < count_; ++i) {
      const std::size_t c = kept_[i].capacity;
      if (c >= capacity && c - capacity <= capacity / 4 &&
          (best == count_ || c < kept_[best].capacity)) {
        best = i;
      }
    }
    if (best == count_) return nullptr;
    std::byte* data = kept_[best].data;
    taken_capacity = kept_[best].capacity;
    bytes_ -= taken_capacity;
    std::move(kept_.begin() + static_cast<std::ptrdiff_t>(best) + 1,
              kept_.begin() + static_cast<std::ptrdiff_t>(count_),
              kept_.begin() + static_cast<std::ptrdiff_t>(best));
    --count_;
    return data;
  }

  // Keeps the buffer, dropping the oldest ones kept beyond the limits; false
  // when it is too large to keep at all (the caller frees it). Allocates
  // nothing: it runs in a deleter, when memory may be short.
  bool keep(std::byte* data, std::size_t capacity) noexcept {
    if (capacity > kKeptBytes) return false;
    std::array<std::byte*, kKeptBuffers + 1> dropped{};
    std::size_t drops = 0;
    {
      const std::lock_guard lock(mutex_);
      if (count_ == kKeptBuffers) {  // room for one more: the oldest goes
        dropped[drops++] = kept_[0].data;
        drop_oldest();
      }
      kept_[count_++] = {data, capacity};
      bytes_ += capacity;
      while (bytes_ > kKeptBytes) {
        dropped[drops++] = kept_[0].data;
        drop_oldest();
      }
    }
    for (std::size_t i = 0; i < drops; ++i) ::operator delete[](dropped[i], kAlign);
    return true;
  }

  // Around fork(): the child gets the mutex unlocked whatever another thread
  // of the parent was doing (pthread_atfork in own_recycler()).
  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  void drop_oldest() noexcept {
    bytes_ -= kept_[0].capacity;
    std::move(kept_.begin() + 1, kept_.begin() + static_cast<std::ptrdiff_t>(count_), kept_.begin());
    --count_;
  }

  std::mutex mutex_;
  std::array<Kept, kKeptBuffers> kept_{};  // the first count_, oldest first
  std::size_t count_ = 0;
  std::size_t bytes_ = 0;
};

Recycler& own_recycler();

// Another copy's store, adopted (core/pixel_store.hpp); null for our own.
std::atomic<Recycler*> adopted{nullptr};

Recycler& recycler() {
  if (Recycler* store = adopted.load(std::memory_order_acquire)) return *store;
  return own_recycler();
}

Recycler& own_recycler() {
  // Never destroyed before the last PixelBuffer: buffers freed by other
  // statics' destructors still find it (its memory is returned at exit).
  static Recycler* const instance = [] {
    auto* r = new Recycler();  // NOLINT(cppcoreguidelines-owning-memory)
    // A child of fork() must not inherit the mutex locked by a thread it lacks.
    (void)::pthread_atfork([] { own_recycler().lock(); }, [] { own_recycler().unlock(); },
                           [] { own_recycler().unlock(); });
    return r;
  }();
  return *instance;
}

// Asks for the whole 2 MiB pages inside [p, p + bytes) to be backed by huge
// pages (the kernel's transparent huge pages, where it is set to "madvise").
void advise_huge_pages(std::byte* p, std::size_t bytes) {
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (start + kHugePage - 1) / kHugePage * kHugePage;
  const std::uintptr_t last = (start + bytes) / kHugePage * kHugePage;
  if (last > first) {
    (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
}

}  // namespace

bool PixelBuffer::keeps_freed() noexcept {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
  return false;
#endif
#endif
  static const bool keeps = [] {
    const char* no = std::getenv("GPUHIST_NO_BUFFER_REUSE");
    return no == nullptr || std::string_view(no) == "0";
  }();
  return keeps;
}

PixelBuffer::PixelBuffer(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  if (bytes > std::numeric_limits<std::size_t>::max() - kPadding - kAlignment) {
    throw std::bad_alloc();
  }
  const std::size_t capacity = capacity_of(bytes);
  if (PixelBuffer::keeps_freed() && capacity >= kKept) {
    std::size_t kept_capacity = 0;
    if (std::byte* kept = recycler().take(capacity, kept_capacity)) {
      data_ = std::unique_ptr<std::byte[], Free>(kept, Free{kept_capacity});
      return;
    }
  }
  data_ = std::unique_ptr<std::byte[], Free>(
      static_cast<std::byte*>(::operator new[](capacity, kAlign)), Free{capacity});
  if (capacity >= kHuge) advise_huge_pages(data_.get(), capacity);
}

PixelBuffer::PixelBuffer(const PixelBuffer& other) : PixelBuffer(other.size_) {
  if (size_ != 0) std::memcpy(data(), other.data(), size_);
}

PixelBuffer& PixelBuffer::operator=(const PixelBuffer& other) {
  if (this != &other) *this = PixelBuffer(other);
  return *this;
}

namespace core {

// A PixelStore is a Recycler seen from outside this file.
PixelStore* pixel_store() noexcept { return reinterpret_cast<PixelStore*>(&own_recycler()); }

void adopt_pixel_store(PixelStore* store) noexcept {
  adopted.store(reinterpret_cast<Recycler*>(store), std::memory_order_release);
}

}  // namespace core

void PixelBuffer::Free::operator()(std::byte* p) const noexcept {
  if (PixelBuffer::keeps_freed() && capacity >= kKept && recycler().keep(p, capacity)) return;
  ::operator delete[](p, kAlign);
}

}  // namespace gpuhist
