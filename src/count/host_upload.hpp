// How a batch of an image in host memory reaches the device: the regions the
// device copies from imported host memory, and the parts a staged upload is
// written and copied in. Pure functions, tested without a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "count/gpu_plan.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::count {

// The copies that pack `batch` of `image` (pixels of `bpp` bytes) tightly at
// the start of the device's pixel buffer, from a buffer of imported host
// memory in which the image's first byte lies at `offset`: one region for
// packed rows or a piece of a row, one per row otherwise.
[[nodiscard]] std::vector<VkBufferCopy> import_regions(const ImageView& image, const Batch& batch,
                                                       std::uint64_t bpp, VkDeviceSize offset);

// Image rows [y0, y1) of each part of a batch of `rows` whole rows from `y0`:
// about `part_bytes` each (at least one row), at most `max_parts` parts.
[[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint32_t>> split_rows(
    std::uint32_t y0, std::uint32_t rows, std::size_t row_bytes, std::uint64_t part_bytes,
    std::size_t max_parts);

// The device's copy of each part from staging to the pixel buffer (both
// packed from the batch's first pixel): rows [y0, y1) of a batch of whole
// rows from batch.y0, or, for the one part {0, 0} of a piece of a row, the
// whole batch from offset 0.
[[nodiscard]] std::vector<VkBufferCopy> part_regions(
    const Batch& batch, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts,
    std::uint64_t row_bytes, std::uint64_t batch_bytes);

// The part size of an upload in parts of `batch_bytes` written by `threads`
// threads: eight parts a thread, so that the device copies the first parts
// while the threads write the rest (with a part a thread, all would land at
// once), from 1 MiB to 4 MiB (smaller parts were slower on an NVIDIA H200).
[[nodiscard]] std::uint64_t default_part_bytes(std::uint64_t batch_bytes,
                                               std::uint32_t threads) noexcept;

// Threads that write `bytes`: one per `per_thread` bytes, up to the cores.
// The threads are kept (waking one costs microseconds), and one thread alone
// copied 3 MB in twice the time the rest of a call took on the H200.
[[nodiscard]] std::uint32_t writer_threads(std::uint64_t bytes,
                                           std::uint64_t per_thread = std::uint64_t{1} << 20) noexcept;

}  // namespace gpuhist::count
