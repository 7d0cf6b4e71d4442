// Threads kept for work split into parts, so that a call does not pay for
// starting a thread a part (tens of microseconds each, more than copying or
// counting a small image takes). A call wakes them in a tree, each woken
// thread waking two more; between calls they look for the next one for a
// while before sleeping (up to a millisecond where calls come that often),
// since waking a sleeping thread costs tens of microseconds too.
#pragma once

#include <cstdint>
#include <functional>

namespace gpuhist {

// Runs fn(0) .. fn(parts - 1) at once, fn(0) on the calling thread and the
// others on the process's kept threads (started on first use, up to one
// fewer than the hardware threads); returns when all are done, rethrowing
// the first exception any part threw. A call made while the kept threads are
// busy with another call, or from one of them, or for more parts than there
// are kept threads, starts threads of its own instead; where one cannot be
// started, the parts started and part 0 still run, and the error is thrown
// once they are done (the parts not started never run). Parts that never wait
// for one another (`apart`) are not lost so: those not started run on the
// calling thread after part 0, and nothing is thrown for them.
void run_parts(std::uint32_t parts, const std::function<void(std::uint32_t)>& fn,
               bool apart = false);

}  // namespace gpuhist
