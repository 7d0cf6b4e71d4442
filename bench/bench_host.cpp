#include "bench_host.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>

#include "bench_measure.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/parallel.hpp"
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
  std::byte* raw = page_aligned
                       ? static_cast<std::byte*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096))
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
  }
  return "?";
}

}  // namespace

void run_host(const Config& config, const vk::Device* device, Report& report) {
  std::unique_ptr<count::GpuCounter> counter;
  if (device != nullptr) counter = std::make_unique<count::GpuCounter>(*device);
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const HistogramOptions options{256};
  for (const auto& [width, height] : config.host_sizes) {
    const std::size_t bytes = std::size_t{width} * height * 4;
    // More runs of the small sizes: their times are a fraction of a millisecond.
    const std::uint32_t runs = bytes < (std::size_t{64} << 20) ? config.repetitions * 5
                                                               : config.repetitions;
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
        row.bus_ms = report.upload_gbps > 0 ? static_cast<double>(bytes) / (report.upload_gbps * 1e6)
                                            : 0.0;
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
      if (counter == nullptr) continue;
      for (const count::Upload path : {count::Upload::Auto, count::Upload::Import,
                                       count::Upload::Parts, count::Upload::Staged}) {
        counter->set_upload({path});
        std::vector<double> times;
        std::string check = "exact";
        for (std::uint32_t i = 0; i < config.warmup + runs; ++i) {
          Histogram h;
          const double ms = wall_ms(
              [&] { h = counter->count(view, options, Strategy::Gpu, ChunkShape::Row256x1); });
          if (i >= config.warmup) times.push_back(ms);
          const std::string c = compare(h, expected);
          if (c != "exact") check = c;
        }
        add(path_name(path), times, check);
      }
      counter->set_upload({});
    }
  }
}

}  // namespace gpuhist::bench
