#include "core/worker_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/cores.hpp"
#include "core/cpu_relax.hpp"

namespace gpuhist {
namespace {

thread_local bool on_worker = false;
// The calling thread runs part 0 while it holds the kept threads: a call from
// inside that part must not wait for them.
thread_local bool in_call = false;
// A child of fork() has none of its parent's kept threads.
bool forked = false;

// How long a kept thread looks for the next call after its part, and the
// caller for the other parts, before sleeping in the kernel: waking a thread
// asleep on an idle core took 40 microseconds a side in a VM (a call of two
// empty parts: 80 us, against 1.3 us with both awake). A helper whose calls
// come less than kBusy apart keeps looking for kBusy (as OpenMP runtimes spin
// for their next parallel region), others for kBrief, so that a helper used
// once in a while takes no time from the other threads of a busy machine.
constexpr auto kBusy = std::chrono::microseconds(1000);
constexpr auto kBrief = std::chrono::microseconds(50);

// A counter one thread waits on and others change, with a flag that says
// whether the waiter is asleep: a change wakes it through the kernel only
// then. (libstdc++'s own check of sleepers is per bucket of addresses, which
// every helper's counter shares: one helper asleep made every wake a
// system call.)
struct alignas(64) Signal {
  std::atomic<std::uint32_t> value{0};
  std::atomic<bool> sleeping{false};

  // Adds one and wakes the waiter if it sleeps. Sequentially consistent with
  // the waiter's flag and load (as Dekker's): either it sees the new value
  // or this sees it asleep.
  void add_one() {
    value.fetch_add(1, std::memory_order_seq_cst);
    if (sleeping.load(std::memory_order_seq_cst)) value.notify_one();
  }
  void subtract_and_wake_at_zero() {
    if (value.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
        sleeping.load(std::memory_order_seq_cst)) {
      value.notify_one();
    }
  }
};

// The value of `s` once it is no longer `old`: spins for `spin`, then sleeps
// until a change is notified.
std::uint32_t await_change(Signal& s, std::uint32_t old, std::chrono::microseconds spin) {
  const std::atomic<std::uint32_t>& a = s.value;
  // Yielding now and then: where more threads want the cores than there are
  // (other threads of the program, other programs), one spinning would keep
  // the thread it waits for off a core for its whole time slice.
  const auto until = std::chrono::steady_clock::now() + spin;
  for (unsigned i = 1;; ++i) {
    const std::uint32_t now = a.load(std::memory_order_acquire);
    if (now != old) return now;
    cpu_relax();
    if (i % 256 == 0) {
      if (std::chrono::steady_clock::now() >= until) break;
      std::this_thread::yield();
    }
  }
  for (;;) {
    s.sleeping.store(true, std::memory_order_seq_cst);
    std::uint32_t now = a.load(std::memory_order_seq_cst);
    if (now == old) {
      a.wait(old, std::memory_order_acquire);
      now = a.load(std::memory_order_acquire);
    }
    s.sleeping.store(false, std::memory_order_relaxed);
    if (now != old) return now;
  }
}

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
    const std::uint32_t helpers = parts - 1;
    try {
      workers_.reserve(helpers);
      while (workers_.size() < helpers) {
        // The worker, then its thread, then its place (which cannot fail once
        // reserved): a thread that cannot start leaves no place unserved.
        auto worker = std::make_unique<Worker>();
        Worker* w = worker.get();
        w->thread = std::thread([this, w, k = workers_.size()] { work(*w, k); });
        workers_.push_back(std::move(worker));
      }
    } catch (...) {
      return false;  // no more threads (or memory) to be had: the caller starts its own
    }
    // Published to the helpers by the counter each wake adds to.
    fn_ = &fn;
    helpers_ = helpers;
    remaining_.value.store(helpers, std::memory_order_relaxed);
    wake_children(-1);
    std::exception_ptr mine;
    in_call = true;
    try {
      fn(0);
    } catch (...) {
      mine = std::current_exception();
    }
    in_call = false;
    // As the helpers do: the caller looks for its helpers' ends for kBusy when
    // its calls come that often.
    const auto spin = last_end_.time_since_epoch().count() != 0 &&
                              std::chrono::steady_clock::now() - last_end_ < kBusy
                          ? kBusy
                          : kBrief;
    for (std::uint32_t left = remaining_.value.load(std::memory_order_acquire); left != 0;
         left = remaining_.value.load(std::memory_order_acquire)) {
      await_change(remaining_, left, spin);
    }
    last_end_ = std::chrono::steady_clock::now();
    // Taken out, so that it does not outlive this call.
    std::exception_ptr theirs = std::exchange(error_, nullptr);
    if (mine) std::rethrow_exception(mine);
    if (theirs) std::rethrow_exception(theirs);
    return true;
  }

 private:
  struct Worker {
    // Calls given to it: one more wakes it. A helper finishes its part before
    // the next call can give it another, so it never misses one.
    Signal calls;
    std::thread thread;
  };

  // Wakes the helpers below `k` in a binary tree (-1: the caller, whose
  // children are helpers 0 and 1): each woken helper wakes two more before
  // its part, so that the wakes' cost is spread over the helpers.
  void wake_children(std::ptrdiff_t k) {
    const auto first = static_cast<std::size_t>(2 * (k + 1));
    for (std::size_t c = first; c < first + 2 && c < helpers_; ++c) {
      workers_[c]->calls.add_one();
    }
  }

  void work(Worker& self, std::size_t k) {
    on_worker = true;
    std::uint32_t seen = 0;
    auto spin = kBrief;
    for (;;) {
      const auto idle = std::chrono::steady_clock::now();
      seen = await_change(self.calls, seen, spin);
      spin = std::chrono::steady_clock::now() - idle < kBusy ? kBusy : kBrief;
      wake_children(static_cast<std::ptrdiff_t>(k));
      try {
        (*fn_)(static_cast<std::uint32_t>(k + 1));
      } catch (...) {
        const std::lock_guard lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
      }
      remaining_.subtract_and_wake_at_zero();
    }
  }

  const std::uint32_t capacity_;
  std::mutex call_mutex_;  // one call at a time uses the kept threads
  // Helper k runs part k + 1. Only run() adds to it, between calls.
  std::vector<std::unique_ptr<Worker>> workers_;
  // The current call, written by run() before it wakes the helpers.
  const std::function<void(std::uint32_t)>* fn_ = nullptr;
  std::uint32_t helpers_ = 0;
  Signal remaining_;  // helpers not yet done (on a cache line of its own)
  std::chrono::steady_clock::time_point last_end_{};  // when the last call ended
  std::mutex error_mutex_;
  std::exception_ptr error_;  // the first exception a helper's part threw
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

void run_parts(std::uint32_t parts, const std::function<void(std::uint32_t)>& fn, bool apart) {
  if (parts == 0) return;
  if (parts == 1) {
    fn(0);
    return;
  }
  if (pool().run(parts, fn)) return;
  std::vector<std::exception_ptr> errors(parts);
  // A thread that cannot be started ends the starting, but part 0 still
  // runs: the parts already running may wait for it. The error is thrown
  // once they are done.
  std::exception_ptr unstarted;
  std::uint32_t started = 1;  // parts 0 .. started - 1 run
  {
    std::vector<std::jthread> threads;
    try {
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
    } catch (...) {
      unstarted = std::current_exception();
    }
    started += static_cast<std::uint32_t>(threads.size());
    try {
      fn(0);
      // Parts apart need no thread of their own: the rest run here.
      for (std::uint32_t p = started; apart && p < parts; ++p) fn(p);
    } catch (...) {
      errors[0] = std::current_exception();
    }
  }
  if (apart) unstarted = nullptr;
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  if (unstarted) std::rethrow_exception(unstarted);
}

}  // namespace gpuhist
