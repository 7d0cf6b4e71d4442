#include "bench_host.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

#include "bench_measure.hpp"
#include "core/stream_copy.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/parallel.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/builders.hpp"
#include "vulkan/check.hpp"
#include "vulkan/device.hpp"
#include "vulkan/pipelines.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {
namespace {

struct FreeBytes {
  void operator()(std::byte* p) const noexcept { std::free(p); }
};
using Bytes = std::unique_ptr<std::byte, FreeBytes>;

// `bytes` of random RGBA8 pixels from malloc (pageable, 16-byte aligned,
// placed 16 bytes in so that they start off any page boundary) or from
// aligned_alloc at a page boundary; written once, so every page is resident.
Bytes make_memory(std::size_t bytes, bool page_aligned, std::uint32_t seed) {
  std::byte* raw =
      page_aligned ? static_cast<std::byte*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096))
                   : static_cast<std::byte*>(std::malloc(bytes + 16));
  if (raw == nullptr) throw std::bad_alloc();
  Bytes out(raw);
  std::byte* pixels = page_aligned ? raw : raw + 16;
  std::mt19937_64 random(seed);
  for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
    const std::uint64_t v = random();
    std::memcpy(pixels + i, &v, 8);
  }
  return out;
}

std::string path_name(count::Upload path) {
  switch (path) {
    case count::Upload::Auto:
      return "auto";
    case count::Upload::Staged:
      return "staged";
    case count::Upload::Parts:
      return "parts";
    case count::Upload::Import:
      return "import";
    case count::Upload::Mapped:
      return "mapped";
  }
  return "?";
}

}  // namespace

void run_host(const Config& config, const vk::Device* device, Report& report) {
  std::unique_ptr<count::GpuCounter> counter;
  std::unique_ptr<count::GpuCounter> small_batches;
  if (device != nullptr) {
    counter = std::make_unique<count::GpuCounter>(*device);
    // Batches of up to 256 MiB, the default before 2026-12-03 (now up to 1 GiB
    // where the device has 8 GiB): four batches, four waits, for 16384².
    small_batches = std::make_unique<count::GpuCounter>(*device, count::GpuLimits{256ULL << 20});
    // What a call costs before any pixel moves: an empty submission and its
    // wait, and a set of three storage buffers made and released.
    const vk::Pipelines pipelines(*device, 64);
    const vk::Buffer a(*device, 1024, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                       vk::MemoryUse::DeviceLocal);
    std::vector<double> submit, sets;
    for (std::uint32_t i = 0; i < 100; ++i) {
      submit.push_back(wall_ms([&] {
        vk::OneTimeCommands commands(*device);
        commands.submit_and_wait("an empty submission");
      }));
      sets.push_back(wall_ms([&] {
        const VkDescriptorBufferInfo info{a.get(), 0, VK_WHOLE_SIZE};
        const VkDescriptorBufferInfo infos[3] = {info, info, info};
        const vk::StorageSet set =
            vk::make_storage_set(device->get(), pipelines.set_layout(), infos);
      }));
    }
    // The same commands submitted again, waited for with vkWaitForFences and
    // by polling the fence.
    std::vector<double> again, polled;
    {
      VkCommandBufferAllocateInfo alloc{};
      alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
      alloc.commandPool = device->command_pool();
      alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      alloc.commandBufferCount = 1;
      VkCommandBuffer cb = VK_NULL_HANDLE;
      vk::check(vkAllocateCommandBuffers(device->get(), &alloc, &cb),
                "allocating a command buffer");
      VkCommandBufferBeginInfo begin{};
      begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
      vk::check(vkBeginCommandBuffer(cb, &begin), "recording");
      vkCmdFillBuffer(cb, a.get(), 0, 1024, 0);
      vk::check(vkEndCommandBuffer(cb), "recording");
      VkFenceCreateInfo fence_info{};
      fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
      VkFence fence = VK_NULL_HANDLE;
      vk::check(vkCreateFence(device->get(), &fence_info, nullptr, &fence), "creating a fence");
      VkSubmitInfo submit_info{};
      submit_info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
      submit_info.commandBufferCount = 1;
      submit_info.pCommandBuffers = &cb;
      for (std::uint32_t i = 0; i < 200; ++i) {
        const bool poll = i % 2 == 1;
        const double ms = wall_ms([&] {
          vk::check(vkQueueSubmit(device->queue(), 1, &submit_info, fence), "submitting");
          if (poll) {
            while (vkGetFenceStatus(device->get(), fence) == VK_NOT_READY) {
            }
          } else {
            vk::check(vkWaitForFences(device->get(), 1, &fence, VK_TRUE, UINT64_MAX), "waiting");
          }
        });
        vk::check(vkResetFences(device->get(), 1, &fence), "resetting a fence");
        (poll ? polled : again).push_back(ms);
      }
      vkDestroyFence(device->get(), fence, nullptr);
      vkFreeCommandBuffers(device->get(), device->command_pool(), 1, &cb);
    }
    std::cerr << "  the same commands again: waited " << vk::median(again) << " ms, polled "
              << vk::median(polled) << " ms\n";
    report.empty_submission_ms = vk::median(submit);
    report.storage_set_ms = vk::median(sets);
    const VkPhysicalDeviceMemoryProperties& memory = device->memory();
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      std::cerr << "  memory type " << i << ": flags 0x" << std::hex
                << memory.memoryTypes[i].propertyFlags << std::dec << ", heap "
                << memory.memoryTypes[i].heapIndex << " of "
                << (memory.memoryHeaps[memory.memoryTypes[i].heapIndex].size >> 20) << " MiB\n";
    }
    std::cerr << "  mappable device-local memory " << (device->mappable_local_bytes() >> 20)
              << " MiB\n";
    std::cerr << "  empty submission " << report.empty_submission_ms << " ms, storage set "
              << report.storage_set_ms << " ms\n";
  }
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const HistogramOptions options{256};
  for (const auto& size : config.host_sizes) {
    // Named copies: clang 14 cannot capture structured bindings in the lambdas below.
    const std::uint32_t width = size.first;
    const std::uint32_t height = size.second;
    const std::size_t bytes = std::size_t{width} * height * 4;
    // More runs of the small sizes: their times are a fraction of a millisecond.
    const std::uint32_t runs =
        bytes < (std::size_t{64} << 20) ? config.repetitions * 5 : config.repetitions;
    for (const bool page_aligned : {false, true}) {
      const Bytes memory = make_memory(bytes, page_aligned, width * 31 + height);
      const ImageView view =
          ImageView::packed(memory.get() + (page_aligned ? 0 : 16), width, height, rgba8);
      const Histogram expected = cpu::count_parallel(view, options);
      const auto add = [&](const std::string& way, const std::vector<double>& times,
                           const std::string& check) {
        HostRow row;
        row.width = width;
        row.height = height;
        row.memory = page_aligned ? "page-aligned" : "pageable";
        row.way = way;
        row.ms = vk::median(times);
        row.gbps = static_cast<double>(bytes) / (row.ms * 1e6);
        row.bus_ms =
            report.upload_gbps > 0 ? static_cast<double>(bytes) / (report.upload_gbps * 1e6) : 0.0;
        row.check = check;
        std::cerr << "  host " << width << 'x' << height << ' ' << row.memory << ' ' << way << ": "
                  << row.ms << " ms " << check << '\n';
        report.host.push_back(row);
      };
      {
        std::vector<double> times;
        Histogram h;
        for (std::uint32_t i = 0; i < config.warmup + runs; ++i) {
          const double ms = wall_ms([&] { h = cpu::count_parallel(view, options); });
          if (i >= config.warmup) times.push_back(ms);
        }
        add("cpu", times, compare(h, expected));
      }
      const std::uint32_t cores = std::max(1U, std::thread::hardware_concurrency());
      // What the host alone copies, timed after the ways.
      const auto host_copy_rows = [&] {
        // The pixels into resident host memory on every core, with memcpy and
        // with non-temporal stores.
        const Bytes target = make_memory(bytes, true, 7);
        for (const bool stream : {false, true}) {
          std::vector<double> times;
          for (std::uint32_t i = 0; i < config.warmup + runs; ++i) {
            const double ms = wall_ms([&] {
              std::vector<std::thread> threads;
              const std::size_t share = (bytes / cores + 63) / 64 * 64;
              for (std::uint32_t t = 0; t < cores && std::size_t{t} * share < bytes; ++t) {
                threads.emplace_back([&, t] {
                  const std::size_t at = std::size_t{t} * share;
                  const std::size_t n = std::min(share, bytes - at);
                  if (stream) {
                    stream_copy(target.get() + at, static_cast<const std::byte*>(view.data) + at,
                                n);
                  } else {
                    std::memcpy(target.get() + at, static_cast<const std::byte*>(view.data) + at,
                                n);
                  }
                });
              }
              for (std::thread& thread : threads) thread.join();
            });
            if (i >= config.warmup) times.push_back(ms);
          }
          add(std::string("host copy only, ") + (stream ? "streaming" : "memcpy") + "/" +
                  std::to_string(cores) + "t",
              times, std::memcmp(target.get(), view.data, bytes) == 0 ? "exact" : "DIFFERS");
        }
      };
      if (counter == nullptr) {
        host_copy_rows();
        continue;
      }
      // The parts also at fixed sizes and on every core, to place the defaults.
      // A wait that polls first, unless "blocking" says otherwise.
      struct Way {
        count::Upload path;
        std::uint64_t part = 0;
        std::uint32_t threads = 0;
        bool stream = false;
        std::uint32_t spin_us = 1000;
        std::uint32_t mapped = 0;
        bool again = false;
        bool small = false;      // batches of up to 256 MiB
        std::uint32_t ring = 0;  // parts staging holds (0: the whole batch)
      };
      // "auto" is the library's default: Mapped up to 4 MiB on a discrete
      // GPU, then parts with a quarter mapped through staging that holds the
      // whole batch.
      const Way ways[] = {{count::Upload::Auto},
                          {count::Upload::Mapped, 0, 0, true},
                          {count::Upload::Mapped, 0, cores, true},
                          {count::Upload::Import},
                          // Staging that holds the whole batch, with none, a quarter (as
                          // the default) or 6/16 of the parts mapped.
                          {count::Upload::Parts, 0, 0, true},
                          {count::Upload::Parts, 0, 0, true, 1000, 4},
                          {count::Upload::Parts, 0, 0, true, 1000, 6},
                          {count::Upload::Staged},
                          // Rings of 2 and 4 parts a core, and with a share mapped.
                          {count::Upload::Parts, 0, 0, true, 1000, 0, false, false, 2 * cores},
                          {count::Upload::Parts, 0, 0, true, 1000, 0, false, false, 4 * cores},
                          {count::Upload::Parts, 0, 0, true, 1000, 2, false, false, 2 * cores},
                          {count::Upload::Parts, 0, 0, true, 1000, 4, false, false, 2 * cores},
                          // The default again, last: at the largest sizes the
                          // first way timed at a size runs slower.
                          {count::Upload::Auto, 0, 0, false, 1000, 0, true},
                          {count::Upload::Auto, 0, 0, false, 1000, 0, false, true}};
      for (const Way& way : ways) {
        // "auto" is the library's default setup, streaming stores included.
        count::UploadSetup setup{way.path,    way.part,   way.threads, way.stream,
                                 way.spin_us, way.mapped, way.ring};
        if (way.path == count::Upload::Auto) setup = {};
        count::GpuCounter& way_counter = way.small ? *small_batches : *counter;
        way_counter.set_upload(setup);
        std::vector<double> times;
        std::string check = "exact";
        for (std::uint32_t i = 0; i < config.warmup + runs; ++i) {
          Histogram h;
          const double ms = wall_ms(
              [&] { h = way_counter.count(view, options, Strategy::Gpu, ChunkShape::Row256x1); });
          if (i >= config.warmup) times.push_back(ms);
          const std::string c = compare(h, expected);
          if (c != "exact") check = c;
        }
        std::string name = path_name(way.path);
        if (way.part > 0) name.append("/").append(std::to_string(way.part >> 10)).append("K");
        if (way.threads > 0) name.append("/").append(std::to_string(way.threads)).append("t");
        // A ring is written with plain stores, its mapped parts as `stream` says.
        if (way.stream && way.ring == 0) name.append("/streaming");
        if (way.spin_us == 0) name.append("/blocking");
        if (way.mapped > 0)
          name.append("/mapped").append(std::to_string(way.mapped)).append("of16");
        if (way.ring > 0) name.append("/ring").append(std::to_string(way.ring));
        if (way.again) name.append(", again");
        if (way.small) name.append(", 256 MiB batches");
        add(name, times, check);
      }
      counter->set_upload({});
      host_copy_rows();
    }
  }
}

}  // namespace gpuhist::bench
