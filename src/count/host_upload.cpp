#include "count/host_upload.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include "core/cores.hpp"
#include "core/row_parts.hpp"
#include "core/worker_pool.hpp"
#include "count/gpu_counter.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/device.hpp"

namespace gpuhist::count {

std::vector<VkBufferCopy> import_regions(const ImageView& image, const Batch& batch,
                                         std::uint64_t bpp, VkDeviceSize offset) {
  const std::uint64_t row_bytes = std::uint64_t{image.width} * bpp;
  const VkDeviceSize first = offset + std::uint64_t{batch.y0} * image.stride + batch.x0 * bpp;
  if (batch.x0 != 0 || batch.width != image.width || image.stride == row_bytes) {
    return {VkBufferCopy{first, 0, std::uint64_t{batch.pixel_count} * bpp}};
  }
  const std::uint32_t rows = batch.pixel_count / image.width;
  std::vector<VkBufferCopy> regions(rows);
  for (std::uint32_t r = 0; r < rows; ++r) {
    regions[r] = VkBufferCopy{first + std::uint64_t{r} * image.stride, r * row_bytes, row_bytes};
  }
  return regions;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> split_rows(std::uint32_t y0,
                                                                std::uint32_t rows,
                                                                std::size_t row_bytes,
                                                                std::uint64_t part_bytes,
                                                                std::size_t max_parts) {
  std::uint64_t per_part =
      std::max<std::uint64_t>(1, part_bytes / std::max<std::size_t>(1, row_bytes));
  const std::uint64_t fewest =
      (rows + std::max<std::size_t>(1, max_parts) - 1) / std::max<std::size_t>(1, max_parts);
  per_part = std::max(per_part, fewest);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parts;
  for (std::uint64_t r = 0; r < rows; r += per_part) {
    parts.emplace_back(
        static_cast<std::uint32_t>(y0 + r),
        static_cast<std::uint32_t>(y0 + std::min<std::uint64_t>(rows, r + per_part)));
  }
  return parts;
}

std::vector<VkBufferCopy> part_regions(
    const Batch& batch, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts,
    std::uint64_t row_bytes, std::uint64_t batch_bytes) {
  std::vector<VkBufferCopy> regions;
  regions.reserve(parts.size());
  for (const auto& part : parts) {
    if (part.second <= part.first) {
      regions.push_back(VkBufferCopy{0, 0, batch_bytes});
      continue;
    }
    const VkDeviceSize offset = VkDeviceSize{part.first - batch.y0} * row_bytes;
    regions.push_back(
        VkBufferCopy{offset, offset, VkDeviceSize{part.second - part.first} * row_bytes});
  }
  return regions;
}

std::uint64_t default_part_bytes(std::uint64_t batch_bytes, std::uint32_t threads) noexcept {
  return std::clamp<std::uint64_t>(batch_bytes / (8 * std::uint64_t{std::max(1U, threads)}),
                                   std::uint64_t{1} << 20, std::uint64_t{4} << 20);
}

std::uint32_t writer_threads(std::uint64_t bytes, std::uint64_t per_thread) noexcept {
  const std::uint64_t by_size =
      std::max<std::uint64_t>(1, bytes / std::max<std::uint64_t>(1, per_thread));
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(core_count(), by_size));
}

UploadWay choose_upload(const UploadSetup& setup, bool unified, std::uint64_t mappable_bytes,
                        std::uint64_t batch_bytes) noexcept {
  // Bytes up to which Auto writes a whole batch into mapped device-local
  // memory, and the share of the parts it writes there beyond (sixteenths):
  // on an NVIDIA H200 the host wrote that memory at about 32 GB/s on 16
  // threads, so a share written there while the rest goes through staging
  // eases host memory, which the staged parts cross three times
  // (docs/PERFORMANCE.md, 2026-12-03).
  constexpr std::uint64_t kMappedWhole = std::uint64_t{4} << 20;
  constexpr std::uint32_t kMappedShare = 4;
  const bool fits = unified || mappable_bytes / 2 >= batch_bytes + 16;
  const std::uint32_t share = fits ? std::min(setup.mapped_sixteenths, 16U) : 0U;
  switch (setup.path) {
    case Upload::Auto:
      if (unified || (fits && batch_bytes <= kMappedWhole)) return {Upload::Mapped, 0};
      return {Upload::Parts, fits ? (share > 0 ? share : kMappedShare) : 0};
    case Upload::Mapped:
      return {fits ? Upload::Mapped : Upload::Parts, 0};
    case Upload::Parts:
      return {Upload::Parts, share};
    case Upload::Staged:
    case Upload::Import:
      break;
  }
  return {setup.path, 0};
}

namespace {

// Most parts one batch is written in.
constexpr std::size_t kMaxParts = 256;

bool whole_rows(const ImageView& image, const Batch& batch) {
  return batch.x0 == 0 && batch.width == image.width;
}

}  // namespace

void GpuCounter::write_batch(const ImageView& image, const Batch& batch, void* destination) const {
  const std::size_t bpp = pixel_bytes(image.format);
  const std::uint64_t bytes = std::uint64_t{batch.pixel_count} * bpp;
  // Mapped device memory of a discrete GPU takes writes over the bus, more
  // slowly a thread: a thread per 256 KiB (an NVIDIA H200 counted 640x480
  // from host memory in half the time on 4 threads as on 1). It is
  // write-combined: the stores must drain before the rows count as written.
  const bool over_bus = !device_.unified_memory() && destination == pixels_.mapped();
  if (!whole_rows(image, batch)) {
    upload(image, batch, destination);
    if (over_bus) std::atomic_thread_fence(std::memory_order_seq_cst);
    return;
  }
  const std::uint32_t rows = batch.pixel_count / image.width;
  const std::size_t row_bytes = std::size_t{image.width} * bpp;
  const std::uint32_t threads =
      std::min(rows, upload_.threads > 0 ? upload_.threads
                                         : writer_threads(bytes, over_bus ? 256U << 10 : 1U << 20));
  auto* out = static_cast<std::byte*>(destination);
  for_row_parts(rows, threads, [&](std::uint32_t, std::uint32_t r0, std::uint32_t r1) {
    upload(image, Batch{batch.y0 + r0, 0, (r1 - r0) * image.width, image.width},
           out + std::size_t{r0} * row_bytes);
    if (over_bus) std::atomic_thread_fence(std::memory_order_seq_cst);
  });
}

std::uint32_t GpuCounter::part_writers(std::uint64_t bytes) const {
  // Writers and the calling thread together fit the kept threads (more would
  // start threads of their own, tens of microseconds each), unless asked.
  return upload_.threads > 0 ? upload_.threads
                             : std::min(writer_threads(bytes), std::max(1U, core_count() - 1));
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> GpuCounter::plan_parts(
    const ImageView& image, const Batch& batch) const {
  const std::uint64_t bpp = pixel_bytes(image.format);
  const std::uint64_t bytes = std::uint64_t{batch.pixel_count} * bpp;
  const std::uint64_t row_bytes = std::uint64_t{image.width} * bpp;
  const std::uint32_t threads = part_writers(bytes);
  return whole_rows(image, batch)
             ? split_rows(
                   batch.y0, batch.pixel_count / image.width, row_bytes,
                   upload_.part_bytes > 0 ? upload_.part_bytes : default_part_bytes(bytes, threads),
                   kMaxParts)
             : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}};
}

void GpuCounter::upload_parts(const ImageView& image, const Batch& batch,
                              const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts,
                              std::uint32_t mapped_sixteenths,
                              const std::function<void()>& submit_count,
                              std::vector<std::unique_ptr<vk::OneTimeCommands>>& copies) {
  auto* staging = static_cast<std::byte*>(staging_.mapped());
  const std::uint64_t bpp = pixel_bytes(image.format);
  const std::uint64_t row_bytes = std::uint64_t{image.width} * bpp;
  const std::uint64_t bytes = std::uint64_t{batch.pixel_count} * bpp;
  const std::vector<VkBufferCopy> regions = part_regions(batch, parts, row_bytes, bytes);
  // Parts written straight into the mapped pixel buffer: a share of them,
  // spread evenly.
  const std::uint32_t share = pixels_mapped_ ? std::min(mapped_sixteenths, 16U) : 0U;
  const auto direct = [&](std::size_t k) { return (k + 1) * share / 16 > k * share / 16; };
  const auto write = [&](std::size_t k) {
    auto* to = direct(k) ? static_cast<std::byte*>(pixels_.mapped()) : staging;
    const auto [y0, y1] = parts[k];
    if (y1 > y0) {
      upload(image, Batch{y0, 0, (y1 - y0) * image.width, image.width},
             to + std::size_t{y0 - batch.y0} * row_bytes);
    } else {
      upload(image, batch, to);
    }
    // Mapped device memory is write-combined on discrete GPUs: its stores
    // must drain before the part is marked as landed.
    if (direct(k)) std::atomic_thread_fence(std::memory_order_seq_cst);
  };
  // The device's copy of the staged parts of [first, last), those next to
  // each other in one region; the parts written into mapped memory need none.
  const auto submit_copy = [&](std::size_t first, std::size_t last) {
    std::vector<VkBufferCopy> merged;
    for (std::size_t k = first; k < last; ++k) {
      if (direct(k)) continue;
      if (!merged.empty() && !direct(k - 1)) {
        merged.back().size = regions[k].srcOffset + regions[k].size - merged.back().srcOffset;
      } else {
        merged.push_back(regions[k]);
      }
    }
    if (merged.empty()) return;
    copies.push_back(std::make_unique<vk::OneTimeCommands>(device_));
    vkCmdCopyBuffer(copies.back()->get(), staging_.get(), pixels_.get(),
                    static_cast<std::uint32_t>(merged.size()), merged.data());
    copies.back()->submit("copying pixels to the device");
  };
  const auto writers =
      static_cast<std::uint32_t>(std::min<std::size_t>(parts.size(), part_writers(bytes)));
  if (writers <= 1) {
    for (std::size_t k = 0; k < parts.size(); ++k) write(k);
    submit_copy(0, parts.size());
    submit_count();
    return;
  }
  // The kept threads write the parts, writer w parts w, w + writers, ...,
  // each marking its parts as they land. The calling thread submits the
  // device's copy of the parts landed in a row from the first not yet copied
  // (host memory is coherent, and a submission makes what the host wrote
  // before it visible to the device), a sixteenth of them or the rest at a
  // time, then the count, which follows the copies in the queue's order.
  std::vector<std::atomic<bool>> written(parts.size());
  std::atomic<std::uint32_t> landed{0};
  std::atomic<bool> failed{false};  // a writer threw: its parts never land
  const std::size_t fewest = std::max<std::size_t>(1, parts.size() / 16);
  run_parts(writers + 1, [&](std::uint32_t t) {
    if (t > 0) {
      for (std::size_t k = t - 1; k < parts.size(); k += writers) {
        try {
          write(k);
        } catch (...) {
          failed.store(true, std::memory_order_release);
          landed.fetch_add(1, std::memory_order_release);
          landed.notify_one();
          throw;
        }
        written[k].store(true, std::memory_order_release);
        landed.fetch_add(1, std::memory_order_release);
        landed.notify_one();
      }
      return;
    }
    std::size_t next = 0;  // the first part not yet copied
    while (next < parts.size()) {
      if (failed.load(std::memory_order_acquire)) return;  // run_parts throws the error
      // Read before looking at the parts: a part that lands after the look
      // changes it, and the wait returns at once.
      const std::uint32_t seen = landed.load(std::memory_order_acquire);
      std::size_t end = next;
      while (end < parts.size() && written[end].load(std::memory_order_acquire)) ++end;
      if (end == parts.size() || end - next >= fewest) {
        submit_copy(next, end);
        next = end;
      } else {
        landed.wait(seen, std::memory_order_acquire);
      }
    }
    submit_count();
  });
}

}  // namespace gpuhist::count
