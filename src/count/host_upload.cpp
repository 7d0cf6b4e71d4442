#include "count/host_upload.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <stdexcept>
#include <thread>

#include "core/cores.hpp"
#include "core/cpu_relax.hpp"
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
  // What Auto does on a discrete GPU, by the batch's size (docs/PERFORMANCE.md,
  // measured on an NVIDIA H200, 2026-12-03):
  // - up to 4 MiB, the whole batch written into mapped device-local memory
  //   (the host writes it at about 32 GB/s on 16 threads);
  // - beyond, parts through staging that holds the whole batch, a quarter of
  //   them written into mapped memory instead. A ring of staging (ring_parts)
  //   was as fast or faster from 7680x4320 up on a quiet host, but took twice
  //   as long while other work loaded the host's cores: each slot waits on
  //   the copy before it, so one writer held back holds back the rest.
  constexpr std::uint64_t kMappedWhole = std::uint64_t{4} << 20;
  constexpr std::uint32_t kMappedShare = 4;
  const bool fits = unified || mappable_bytes / 2 >= batch_bytes + 16;
  const std::uint32_t share = fits ? std::min(setup.mapped_sixteenths, 16U) : 0U;
  switch (setup.path) {
    case Upload::Auto:
      if (unified || (fits && batch_bytes <= kMappedWhole)) return {Upload::Mapped, 0, 0};
      return {Upload::Parts, fits ? (share > 0 ? share : kMappedShare) : 0, setup.ring_parts};
    case Upload::Mapped:
      return {fits ? Upload::Mapped : Upload::Parts, 0, 0};
    case Upload::Parts:
      return {Upload::Parts, share, setup.ring_parts};
    case Upload::Staged:
    case Upload::Import:
      break;
  }
  return {setup.path, 0, 0};
}

namespace {

// Most parts one batch is written in: through staging that holds the whole
// batch, and through a ring of staging (parts of 1 MiB up to 4 GiB).
constexpr std::size_t kMaxParts = 256;
constexpr std::size_t kMaxRingParts = 4096;

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
    upload(image, batch, destination, upload_.stream);
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
           out + std::size_t{r0} * row_bytes, upload_.stream);
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
    const ImageView& image, const Batch& batch, std::uint32_t ring) const {
  const std::uint64_t bpp = pixel_bytes(image.format);
  const std::uint64_t bytes = std::uint64_t{batch.pixel_count} * bpp;
  const std::uint64_t row_bytes = std::uint64_t{image.width} * bpp;
  const std::uint32_t threads = part_writers(bytes);
  const std::uint64_t part_bytes = upload_.part_bytes > 0 ? upload_.part_bytes
                                   : ring > 0             ? kRingPartBytes
                                                          : default_part_bytes(bytes, threads);
  return whole_rows(image, batch) ? split_rows(batch.y0, batch.pixel_count / image.width, row_bytes,
                                               part_bytes, ring > 0 ? kMaxRingParts : kMaxParts)
                                  : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}};
}

std::uint64_t GpuCounter::ring_bytes(const ImageView& image, const GpuPlan& plan,
                                     std::uint32_t ring) const {
  if (ring == 0) return 0;
  const std::uint64_t row_bytes = std::uint64_t{image.width} * plan.bpp;
  std::uint64_t most = 0;
  for (const Batch& batch : plan.batches) {
    const auto parts = plan_parts(image, batch, ring);
    const std::vector<VkBufferCopy> regions =
        part_regions(batch, parts, row_bytes, std::uint64_t{batch.pixel_count} * plan.bpp);
    std::uint64_t slot = 0;
    for (const VkBufferCopy& region : regions) slot = std::max<std::uint64_t>(slot, region.size);
    most = std::max(most, std::min<std::uint64_t>(ring, parts.size()) * slot);
  }
  return most;
}

void GpuCounter::upload_parts(const ImageView& image, const Batch& batch,
                              const std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts,
                              std::uint32_t mapped_sixteenths, std::uint32_t ring,
                              const std::function<void()>& submit_count,
                              std::vector<std::unique_ptr<vk::OneTimeCommands>>& copies) {
  auto* staging = static_cast<std::byte*>(staging_.mapped());
  auto* mapped = static_cast<std::byte*>(pixels_.mapped());
  const std::uint64_t bpp = pixel_bytes(image.format);
  const std::uint64_t row_bytes = std::uint64_t{image.width} * bpp;
  const std::uint64_t bytes = std::uint64_t{batch.pixel_count} * bpp;
  const std::size_t count = parts.size();
  std::vector<VkBufferCopy> regions = part_regions(batch, parts, row_bytes, bytes);
  // Parts written straight into the mapped pixel buffer: a share of them,
  // spread evenly.
  const std::uint32_t share = pixels_mapped_ ? std::min(mapped_sixteenths, 16U) : 0U;
  const auto direct = [&](std::size_t k) { return (k + 1) * share / 16 > k * share / 16; };
  // A ring: staging holds `slots` parts, part k in slot k % slots, written
  // once the device's copy of part k - slots is done. Otherwise part k lies
  // in staging where it lies in the batch.
  const std::size_t slots = ring > 0 ? std::min<std::size_t>(ring, count) : 0;
  if (slots > 0) {
    VkDeviceSize slot_bytes = 0;
    for (const VkBufferCopy& region : regions) slot_bytes = std::max(slot_bytes, region.size);
    for (std::size_t k = 0; k < count; ++k) regions[k].srcOffset = (k % slots) * slot_bytes;
    // prepare() sized staging by ring_bytes(); a ring that outgrew it would
    // write past its end.
    if (slots * slot_bytes > staging_.size()) {
      throw std::logic_error("the staging ring is larger than its buffer");
    }
  }
  const auto write = [&](std::size_t k) {
    std::byte* to = direct(k) ? mapped + regions[k].dstOffset : staging + regions[k].srcOffset;
    // Plain stores into a ring, which is to stay in the caches.
    const bool stream = upload_.stream && (direct(k) || slots == 0);
    const auto [y0, y1] = parts[k];
    if (y1 > y0) {
      upload(image, Batch{y0, 0, (y1 - y0) * image.width, image.width}, to, stream);
    } else {
      upload(image, batch, to, stream);
    }
    // Mapped device memory is write-combined on discrete GPUs: its stores
    // must drain before the part is marked as landed.
    if (direct(k)) std::atomic_thread_fence(std::memory_order_seq_cst);
  };
  // The device's copy of the staged parts of [first, last), those next to
  // each other in both buffers in one region; the parts written into mapped
  // memory need none. False when there was nothing to copy.
  const auto submit_copy = [&](std::size_t first, std::size_t last) {
    std::vector<VkBufferCopy> merged;
    for (std::size_t k = first; k < last; ++k) {
      if (direct(k)) continue;
      const VkBufferCopy& region = regions[k];
      VkBufferCopy* before = merged.empty() ? nullptr : &merged.back();
      if (before != nullptr && before->srcOffset + before->size == region.srcOffset &&
          before->dstOffset + before->size == region.dstOffset) {
        before->size += region.size;
      } else {
        merged.push_back(region);
      }
    }
    if (merged.empty()) return false;
    copies.push_back(std::make_unique<vk::OneTimeCommands>(device_));
    vkCmdCopyBuffer(copies.back()->get(), staging_.get(), pixels_.get(),
                    static_cast<std::uint32_t>(merged.size()), merged.data());
    copies.back()->submit("copying pixels to the device");
    return true;
  };
  const auto writers =
      static_cast<std::uint32_t>(std::min<std::size_t>(count, part_writers(bytes)));
  if ((writers <= 1 && slots == 0) || count == 1) {
    for (std::size_t k = 0; k < count; ++k) write(k);
    (void)submit_copy(0, count);
    submit_count();
    return;
  }
  // The writing threads (kept ones, or started for the call where those are
  // busy) write the parts, each taking the next part not yet taken, and mark
  // them as they land. The calling thread submits the
  // device's copy of the parts landed in a row from the first not yet copied
  // (host memory is coherent, and a submission makes what the host wrote
  // before it visible to the device), a sixteenth of them (a quarter of the
  // ring) or the rest at a time, then the count, which follows the copies in
  // the queue's order. With a ring it also looks for copies done, in order,
  // and frees their slots. Until a writer has started it writes parts itself
  // rather than wait, so that the parts are written even where no writer
  // thread could be started.
  std::vector<std::atomic<bool>> written(count);
  std::atomic<std::uint32_t> landed{0};
  // The next part to take (it runs past `count` by the threads that found none).
  std::atomic<std::size_t> taken{0};
  std::atomic<std::size_t> copied{0};  // parts [0, copied) left staging (ring)
  // Counts every move of `copied` and the failure, for writers waiting on a
  // slot: it only grows, so a waiter never misses a change.
  std::atomic<std::uint32_t> freed{0};
  std::atomic<std::uint32_t> started{0};  // writers that have begun
  std::atomic<bool> failed{false};        // a writer or the caller threw: parts never land
  const std::size_t fewest =
      std::max<std::size_t>(1, slots > 0 ? std::min(count / 16, slots / 4) : count / 16);
  const auto stop_all = [&] {
    failed.store(true, std::memory_order_release);
    landed.fetch_add(1, std::memory_order_release);
    landed.notify_one();
    freed.fetch_add(1, std::memory_order_release);
    freed.notify_all();
  };
  // Whether part k's slot is free: the copy of the part before it in the slot is done.
  const auto slot_free = [&](std::size_t k) {
    return slots == 0 || direct(k) || k < slots ||
           copied.load(std::memory_order_acquire) + slots > k;
  };
  const auto land = [&](std::size_t k) {
    written[k].store(true, std::memory_order_release);
    landed.fetch_add(1, std::memory_order_release);
    landed.notify_one();
  };
  run_parts(writers + 1, [&](std::uint32_t t) {
    if (t > 0) {
      started.fetch_add(1, std::memory_order_relaxed);
      for (std::size_t k = taken.fetch_add(1); k < count; k = taken.fetch_add(1)) {
        for (;;) {
          if (failed.load(std::memory_order_acquire)) return;
          const std::uint32_t seen = freed.load(std::memory_order_acquire);
          if (slot_free(k)) break;
          freed.wait(seen, std::memory_order_acquire);
        }
        try {
          write(k);
        } catch (...) {
          stop_all();
          throw;
        }
        land(k);
      }
      return;
    }
    // Copies submitted and not yet known done (ring): the index in `copies`
    // (none where every part of the run was mapped) and the end of their run.
    constexpr std::size_t kNone = ~std::size_t{0};
    std::deque<std::pair<std::size_t, std::size_t>> pending;
    std::size_t next = 0;  // the first part not yet copied
    try {
      for (unsigned idle = 0; next < count;) {
        if (failed.load(std::memory_order_acquire)) return;  // run_parts throws the error
        bool moved = false;
        while (!pending.empty() &&
               (pending.front().first == kNone ||
                copies[pending.front().first]->done("copying pixels to the device"))) {
          if (pending.front().first != kNone) copies[pending.front().first].reset();
          copied.store(pending.front().second, std::memory_order_release);
          pending.pop_front();
          moved = true;
        }
        if (moved) {
          freed.fetch_add(1, std::memory_order_release);
          freed.notify_all();
        }
        // Read before looking at the parts: a part that lands after the look
        // changes it, and the wait returns at once.
        const std::uint32_t seen = landed.load(std::memory_order_acquire);
        std::size_t end = next;
        while (end < count && written[end].load(std::memory_order_acquire)) ++end;
        if (end > next && (end == count || end - next >= fewest)) {
          const bool copying = submit_copy(next, end);
          if (slots > 0) pending.emplace_back(copying ? copies.size() - 1 : kNone, end);
          next = end;
          moved = true;
        }
        if (moved) {
          idle = 0;
          continue;
        }
        // No writer yet: the next part, where its slot is free.
        if (started.load(std::memory_order_relaxed) == 0) {
          std::size_t k = taken.load(std::memory_order_relaxed);
          if (k < count && slot_free(k) && taken.compare_exchange_strong(k, k + 1)) {
            write(k);
            land(k);
            continue;
          }
        }
        if (slots == 0 || pending.empty()) {
          landed.wait(seen, std::memory_order_acquire);
        } else if (++idle % 64 == 0) {
          std::this_thread::yield();  // the copies take the device microseconds
        } else {
          cpu_relax();
        }
      }
    } catch (...) {
      stop_all();
      throw;
    }
    submit_count();
  });
}

}  // namespace gpuhist::count
