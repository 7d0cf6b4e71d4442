#include "bench_runner.hpp"

#include "device_probes.hpp"

#include <algorithm>
#include <memory>

#include "bench_adjust.hpp"
#include "bench_host.hpp"
#include "bench_images.hpp"
#include "bench_measure.hpp"
#include "bench_stream.hpp"
#include "count/gpu_counter.hpp"
#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "gpuhist/error.hpp"
#include "tuning_grid.hpp"
#include "vulkan/device.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/instance.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {

Config default_config(bool quick) {
  Config config;
  config.kinds = {DataKind::Random, DataKind::Flat, DataKind::Photo};
  config.strategies.assign(all_strategies().begin(), all_strategies().end());
  const PixelFormat rgba8{ChannelLayout::RGBA, SampleType::U8};
  const PixelFormat rgba16{ChannelLayout::RGBA, SampleType::U16};
  const PixelFormat rgbaf{ChannelLayout::RGBA, SampleType::F32};
  if (quick) {
    config.sizes = {{256, 256}, {1024, 768}};
    config.cases = {{rgba8, 256}, {rgba16, 4096}, {rgbaf, 1024}};
    config.repetitions = 3;
    config.warmup = 1;
    config.stream_sizes = {{320, 240}};
    config.stream_frames = 12;
    config.adjust_sizes = {{320, 240}};
    config.host_sizes = {{640, 480}, {2448, 1505}};
  } else {
    config.host_sizes = {{2448, 1505}, {7680, 4320}, {16384, 16384}};
    config.sizes = {{2448, 1505}, {7680, 4320}, {16384, 16384}};
    config.cases = {{rgba8, 256}, {rgba16, 4096}, {rgba16, 65536}, {rgbaf, 1024}};
    config.stream_sizes = {{1920, 1080}, {3840, 2160}, {7680, 4320}};
    config.adjust_sizes = {{1920, 1080}, {3840, 2160}};
  }
  return config;
}

Report run(const Config& config, const std::function<void(const Row&)>& progress) {
  Report report;
  report.date = now_utc();
  report.repetitions = config.repetitions;
  auto instance = vk::Instance::create();
  std::unique_ptr<vk::Device> device;
  if (instance && config.device != "cpu") device = vk::open_device(*instance, config.device);
  if (device) report.device = device->info();

  std::uint64_t largest_bytes = 0;
  for (const auto& [w, h] : config.host_sizes) {
    if (config.host_only) largest_bytes = std::max(largest_bytes, std::uint64_t{w} * h * 4);
  }
  for (const auto& [w, h] : config.sizes) {
    if (config.host_only) break;
    for (const Case& c : config.cases) {
      largest_bytes = std::max(largest_bytes, std::uint64_t{w} * h * pixel_bytes(c.format));
    }
  }
  std::unique_ptr<count::GpuCounter> counter;
  if (device) {
    count::GpuLimits limits;
    limits.max_batch_bytes = std::max<std::uint64_t>(largest_bytes, limits.max_batch_bytes);
    counter = std::make_unique<count::GpuCounter>(*device, limits);
    const std::uint64_t copy_bytes = std::clamp<std::uint64_t>(largest_bytes, 1 << 20, 1ULL << 30);
    warm_up(*device, device->info().hardware() ? 500.0 : 0.0);
    DeviceProbes probes(*device);
    report.copy_gbps = probes.copy_rate(copy_bytes, config.repetitions);
    report.copy_small_gbps = probes.copy_rate(64ULL << 20, config.repetitions);
    // Uploads of at least 64 MiB: small copies measure latency, not the bus.
    report.upload_gbps = probes.upload_rate(
        std::clamp<std::uint64_t>(largest_bytes, 64ULL << 20, 256ULL << 20), config.repetitions);
    report.shader_copy_gbps = probes.shader_copy_rate(copy_bytes, config.repetitions);
    report.shader_read_gbps = probes.shader_read_rate(copy_bytes, config.repetitions);
  }
  if (config.host_only) {
    run_host(config, device.get(), report);
    return report;
  }
  const double copy_limit = std::max(report.copy_gbps, report.shader_copy_gbps);

  const auto largest_size =
      *std::max_element(config.sizes.begin(), config.sizes.end(), [](const auto& a, const auto& b) {
        return std::uint64_t{a.first} * a.second < std::uint64_t{b.first} * b.second;
      });
  for (std::size_t ci = 0; ci < config.cases.size(); ++ci) {
    const Case& c = config.cases[ci];
    for (auto size : config.sizes) {
      if ((ci > 0 || config.tune) && size != largest_size) continue;
      // Tuning: the 8-bit grid on 8-bit cases, grids for the large histograms
      // on 16-bit ones and on every format above 4096 bins (float ones below
      // fit shared memory).
      if (config.tune && c.format.sample == SampleType::F32 && c.bins <= 4096) continue;
      if (ci > 0) {
        // Later cases keep the first case's largest byte count: fewer rows of wider pixels.
        const std::uint64_t rows = std::uint64_t{size.second} *
                                   pixel_bytes(config.cases[0].format) / pixel_bytes(c.format);
        size.second = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, rows));
      }
      for (DataKind kind : config.kinds) {
        if (kind == DataKind::Photo && !config.photo) continue;
        const Pixels pixels = make_pixels(c, size.first, size.second, kind, config.photo);
        const HistogramOptions options{c.bins};
        const Histogram expected = cpu::count_parallel(pixels.view, options);
        const double bytes = static_cast<double>(pixels.view.pixel_count()) * pixel_bytes(c.format);
        const auto finish = [&](Row row, double ms) {
          row.width = size.first;
          row.height = size.second;
          row.format = c.format;
          row.bins = c.bins;
          row.kind = kind;
          row.gbps = ms > 0 ? bytes / (ms * 1e6) : 0.0;
          row.gpixels = ms > 0 ? static_cast<double>(pixels.view.pixel_count()) / (ms * 1e6) : 0.0;
          row.copy_percent = copy_limit > 0 ? 100.0 * row.gbps / copy_limit : 0.0;
          row.read_percent =
              report.shader_read_gbps > 0 ? 100.0 * row.gbps / report.shader_read_gbps : 0.0;
          progress(row);
          report.rows.push_back(std::move(row));
        };

        if (config.tune) {
          if (!counter) throw Error(ErrorKind::Device, "tuning needs a Vulkan device");
          const auto grid = c.bins > 4096                       ? ranged_histogram_grid()
                            : c.format.sample == SampleType::U8 ? tuning_grid(device->info())
                                                                : large_histogram_grid();
          for (const count::GpuTuning& tuning : grid) {
            counter->set_tuning(tuning);
            Row row;
            row.strategy = Strategy::Gpu;
            row.variant = describe(tuning);
            const Timing t = measure(*counter, pixels.view, options, Strategy::Gpu,
                                     config.repetitions, config.warmup, expected);
            row.gpu_ms = t.ms;
            row.check = t.check;
            finish(row, *row.gpu_ms);
          }
          counter->set_tuning({});
          continue;
        }

        for (Strategy strategy : config.strategies) {
          const std::uint64_t count = pixels.view.pixel_count();
          if ((strategy == Strategy::GpuSingle && count > config.single_max_pixels) ||
              (strategy == Strategy::CpuReference && count > config.reference_max_pixels)) {
            continue;
          }
          Row row;
          row.strategy = strategy;
          if (!runs_on_gpu(strategy)) {
            std::vector<double> times;
            Histogram h;
            for (std::uint32_t i = 0; i < config.warmup + config.repetitions; ++i) {
              const double ms = wall_ms([&] {
                h = strategy == Strategy::Cpu ? cpu::count_parallel(pixels.view, options)
                                              : cpu::count_reference(pixels.view, options);
              });
              if (i >= config.warmup) times.push_back(ms);
            }
            row.wall_ms = vk::median(times);
            row.check = compare(h, expected);
            finish(row, *row.wall_ms);
            continue;
          }
          if (!counter) continue;
          const std::uint32_t runs = strategy == Strategy::GpuSingle ? 1 : config.repetitions;
          try {
            const Timing t =
                measure(*counter, pixels.view, options, strategy, runs, config.warmup, expected);
            row.gpu_ms = t.ms;
            row.check = t.check;
            std::vector<double> walls;
            for (std::uint32_t i = 0; i < std::min(runs, 3U); ++i) {
              walls.push_back(wall_ms([&] {
                (void)counter->count(pixels.view, options, strategy, ChunkShape::Row256x1);
              }));
            }
            row.wall_ms = vk::median(walls);
            finish(row, *row.gpu_ms);
          } catch (const Error& e) {
            // A limit of this device (buffer range, memory): reported, and the rest still runs.
            if (e.kind() != ErrorKind::InvalidArgument && e.kind() != ErrorKind::Device) throw;
            row.check = std::string("not run: ") + e.what();
            finish(row, 0.0);
          }
        }
      }
    }
  }
  if (counter && !config.tune) run_stream(config, *counter, report);
  if (!config.tune) run_adjust(config, report);
  return report;
}

}  // namespace gpuhist::bench
