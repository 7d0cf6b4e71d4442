// The store of freed pixel buffers is one per process. A module loaded at run
// time that carries its own copy of the core (the image-file module, which
// holds OpenImageIO) adopts the store of the code that loaded it, so that the
// buffers it allocates come from, and go back to, the same store.
#pragma once

namespace gpuhist::core {

struct PixelStore;  // opaque: only pixel_buffer.cpp knows it

// This copy's store (made on first use).
[[nodiscard]] PixelStore* pixel_store() noexcept;

// From now on this copy of the core takes and keeps buffers in `store`
// (another copy's pixel_store()). Call it before the copy allocates a buffer.
void adopt_pixel_store(PixelStore* store) noexcept;

}  // namespace gpuhist::core
