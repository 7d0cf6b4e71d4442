// Copying bytes that the CPU will not read again (pixels on their way to a
// device) with non-temporal stores: the destination's lines are written
// whole, without being read into the cache first, which leaves the memory
// bus the read of the source and the write alone.
#pragma once

#include <cstddef>

namespace gpuhist {

// Copies `bytes` bytes from `source` to `destination` (not overlapping), then
// fences, so that the bytes are visible to other agents (a device polling an
// event set after this returns) before any later store. Plain memcpy where
// the target has no non-temporal stores.
void stream_copy(void* destination, const void* source, std::size_t bytes) noexcept;

}  // namespace gpuhist
