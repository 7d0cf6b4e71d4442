// Which strategy counts an image from host memory faster when the caller
// names none. On a hardware GPU a call from pageable memory costs about
// 0.065 ms beyond moving the pixels at about 30 GB/s (an NVIDIA H200, with
// the upload in parts written with streaming stores); the `cpu` strategy
// counts an image under 65536 pixels on one thread, at about 2.3 GB/s, and a
// larger one on more threads that each cost their start (docs/PERFORMANCE.md,
// `gpuhist bench --e2e`). The GPU wins from about 160 KB (a 200x200 RGBA8
// image) at every size measured, on any number of cores.
#pragma once

#include <cstdint>

#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"

namespace gpuhist::engine {

// Image bytes from which the `gpu` strategy is the faster one on a host of
// `cores` cores (the same for every count: see above).
[[nodiscard]] std::uint64_t gpu_crossover_bytes(std::uint32_t cores) noexcept;

// `gpu` for an image of at least gpu_crossover_bytes(cores) on a hardware
// GPU, `cpu` otherwise.
[[nodiscard]] Strategy auto_strategy(const ImageView& image, bool hardware,
                                     std::uint32_t cores) noexcept;

}  // namespace gpuhist::engine
