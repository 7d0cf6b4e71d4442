// Which strategy counts an image from host memory faster when the caller
// names none. On a hardware GPU a call costs, beyond moving the pixels at the
// rate of the upload in parts (about 27 GB/s on an NVIDIA H200), about 0.3 ms
// at the sizes where the two strategies meet (0.07 ms for an empty image);
// the `cpu` strategy counts about 0.93 GB/s a core, up to about 11 GB/s at
// those sizes (docs/PERFORMANCE.md, `gpuhist bench --e2e`). The GPU wins from
// the size where the two times meet: about 5.6 MB on 16 cores.
#pragma once

#include <cstdint>

#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"

namespace gpuhist::engine {

// Image bytes from which the `gpu` strategy is the faster one on a host of
// `cores` cores; UINT64_MAX where the CPU is never slower.
[[nodiscard]] std::uint64_t gpu_crossover_bytes(std::uint32_t cores) noexcept;

// `gpu` for an image of at least gpu_crossover_bytes(cores) on a hardware
// GPU, `cpu` otherwise.
[[nodiscard]] Strategy auto_strategy(const ImageView& image, bool hardware,
                                     std::uint32_t cores) noexcept;

}  // namespace gpuhist::engine
