// How a batch of an image in host memory reaches the device: the ways, the
// one chosen for a device, the regions the device copies from imported host
// memory, and the parts an upload is written and copied in. Pure functions,
// tested without a device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "count/gpu_plan.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::count {

// How count() brings an image from host memory to the device.
enum class Upload : std::uint8_t {
  // On unified memory, and on a discrete GPU for batches up to 4 MiB, Mapped;
  // beyond, Parts with a quarter of them mapped (choose_upload).
  Auto,
  Staged,  // the host copies each batch into a staging buffer, then the device copies it
  // As Staged, in parts written on several threads: each run of parts that
  // has landed is copied to the device's memory by a submission of its own,
  // in order, while the threads write the rest; UploadSetup::mapped_sixteenths
  // of them go straight into mapped device-local memory instead.
  Parts,
  // The device copies from the caller's memory itself (VK_EXT_external_memory_host);
  // Parts where it cannot import it. Each call imports (pins) the pages anew,
  // which on the devices measured cost more than the copy it saves.
  Import,
  // The host writes the pixels, on several threads, straight into device-local
  // memory it can map (a discrete GPU's BAR), where the shaders read them: the
  // pixels cross host memory once. Parts where the device has too little
  // such memory (a heap of less than twice the batch, or an allocation refused).
  Mapped,
};
struct UploadSetup {
  Upload path = Upload::Auto;
  // Bytes of one part (Parts; 0: by the batch's size, 1 MiB through a ring).
  std::uint64_t part_bytes = 0;
  std::uint32_t threads = 0;  // threads writing parts or batches (0: by size, up to the cores)
  // The host writes staging and mapped memory with non-temporal stores
  // (stream_copy) rather than memcpy: 10-25% faster a call on the H200
  // (2026-12-02). A ring of staging takes plain stores whatever this says.
  bool stream = true;
  // On a hardware device, the calling thread polls for the end of the work for
  // up to this long before it blocks.
  std::uint32_t spin_us = 1000;
  // Parts and Auto: sixteenths of the parts the threads write straight into
  // mapped device-local memory (where the device has enough), the rest
  // through staging; 0 for Auto is its default, 4.
  std::uint32_t mapped_sixteenths = 0;
  // Parts and Auto: staging holds this many parts (of 1 MiB unless part_bytes
  // says otherwise), each written again once the device has copied the part
  // before it out, with plain stores (0, the default: staging holds the whole
  // batch). A small ring stays in the host's caches, where the device's
  // copies read it, and holds little host memory; it lost to the default
  // while other work loaded the host's cores (docs/PERFORMANCE.md).
  std::uint32_t ring_parts = 0;
};

// How count() brings a batch to the device.
struct UploadWay {
  Upload path;
  std::uint32_t mapped_sixteenths;  // of the parts, written into mapped memory
  std::uint32_t ring_parts = 0;     // parts staging holds (0: the whole batch)
};

// The way for a batch of `batch_bytes` on a device with `unified` memory and
// a largest heap of mappable device-local memory of `mappable_bytes`: the
// setup's path, or for Auto the fastest measured; Mapped, and a share of
// mapped parts, only where that heap holds twice the batch (always on
// unified memory).
[[nodiscard]] UploadWay choose_upload(const UploadSetup& setup, bool unified,
                                      std::uint64_t mappable_bytes,
                                      std::uint64_t batch_bytes) noexcept;

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

// Bytes of a part of an upload in parts through a ring of staging (UploadSetup::ring_parts).
inline constexpr std::uint64_t kRingPartBytes = std::uint64_t{1} << 20;

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
                                           std::uint64_t per_thread = 1U << 20) noexcept;

}  // namespace gpuhist::count
