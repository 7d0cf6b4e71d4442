#include "core/worker_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/cores.hpp"

namespace gpuhist {
namespace {

thread_local bool on_worker = false;
// The calling thread runs part 0 while it holds the kept threads: a call from
// inside that part must not wait for them.
thread_local bool in_call = false;
// A child of fork() has none of its parent's kept threads.
bool forked = false;

class WorkerPool {
 public:
  WorkerPool() : capacity_(core_count() - 1) {}
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  // Never destroyed (see pool()): its threads end with the process.
  ~WorkerPool() = delete;

  // False when the kept threads cannot take this call (see run_parts).
  bool run(std::uint32_t parts, const std::function<void(std::uint32_t)>& fn) {
    if (on_worker || in_call || forked || parts - 1 > capacity_) return false;
    std::unique_lock call(call_mutex_, std::try_to_lock);
    if (!call.owns_lock()) return false;
    {
      std::unique_lock lock(mutex_);
      try {
        slots_.reserve(parts - 1);
        threads_.reserve(parts - 1);
        while (threads_.size() < parts - 1) {
          // The thread first, then its slot (which cannot fail once reserved): a
          // thread that cannot start leaves no slot unserved, and a new thread
          // cannot look at its slot before mutex_ is released.
          threads_.emplace_back([this, k = threads_.size()] { work(k); });
          slots_.emplace_back();
        }
      } catch (...) {
        return false;  // no more threads (or memory) to be had: the caller starts its own
      }
      for (std::uint32_t k = 0; k + 1 < parts; ++k) slots_[k] = Slot{&fn, k + 1, true};
      remaining_ = parts - 1;
      error_ = nullptr;
    }
    wake_.notify_all();
    std::exception_ptr mine;
    in_call = true;
    try {
      fn(0);
    } catch (...) {
      mine = std::current_exception();
    }
    in_call = false;
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return remaining_ == 0; });
    if (mine) std::rethrow_exception(mine);
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  struct Slot {
    const std::function<void(std::uint32_t)>* fn = nullptr;
    std::uint32_t part = 0;
    bool ready = false;
  };

  void work(std::size_t k) {
    on_worker = true;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return slots_[k].ready; });
      const Slot slot = slots_[k];
      slots_[k].ready = false;
      lock.unlock();
      std::exception_ptr error;
      try {
        (*slot.fn)(slot.part);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (error && !error_) error_ = error;
      if (--remaining_ == 0) done_.notify_one();
    }
  }

  const std::uint32_t capacity_;
  std::mutex call_mutex_;  // one call at a time uses the kept threads
  std::mutex mutex_;       // guards everything below
  std::condition_variable wake_, done_;
  std::vector<Slot> slots_;  // slot k feeds thread k
  std::vector<std::thread> threads_;
  std::uint32_t remaining_ = 0;
  std::exception_ptr error_;
};

// Made once and never destroyed: joining its threads at exit could run after
// other static objects they use are gone, and in a child of fork() they do
// not exist.
WorkerPool& pool() {
  static WorkerPool* const instance = [] {
    ::pthread_atfork(nullptr, nullptr, [] { forked = true; });
    return new WorkerPool();  // NOLINT(cppcoreguidelines-owning-memory)
  }();
  return *instance;
}

}  // namespace

void run_parts(std::uint32_t parts, const std::function<void(std::uint32_t)>& fn) {
  if (parts == 0) return;
  if (parts == 1) {
    fn(0);
    return;
  }
  if (pool().run(parts, fn)) return;
  std::vector<std::exception_ptr> errors(parts);
  {
    std::vector<std::jthread> threads;
    threads.reserve(parts - 1);
    for (std::uint32_t p = 1; p < parts; ++p) {
      threads.emplace_back([&, p] {
        try {
          fn(p);
        } catch (...) {
          errors[p] = std::current_exception();
        }
      });
    }
    try {
      fn(0);
    } catch (...) {
      errors[0] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace gpuhist
