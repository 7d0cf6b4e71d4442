// A hint to the processor that the calling thread is spinning on a value
// another thread will change: it eases the core for its sibling and the
// memory system while the thread looks again.
#pragma once

namespace gpuhist {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace gpuhist
