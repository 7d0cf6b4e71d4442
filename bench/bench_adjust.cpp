#include "bench_adjust.hpp"

#include <string>

#include "bench_images.hpp"
#include "bench_measure.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {

void run_adjust(const Config& config, Report& report) {
  if (config.adjust_sizes.empty()) return;
  const Context context = Context::open(config.device);
  for (const PixelFormat format : config.adjust_formats) {
    const Case tone{format, tone_options(format).bins};
    for (const auto& [w, h] : config.adjust_sizes) {
      const Pixels frame =
          make_pixels(tone, w, h, config.photo ? DataKind::Photo : DataKind::Random, config.photo);
      const Pixels noise = make_pixels(tone, w, h, DataKind::Random, config.photo);
      const Histogram reference =
          context.compute(noise.view, tone_options(format), RunOptions{Strategy::Cpu});
      for (AdjustKind kind : {AdjustKind::Equalize, AdjustKind::Clahe, AdjustKind::Autolevel,
                              AdjustKind::Threshold, AdjustKind::Match}) {
        Adjustment adjustment;
        adjustment.kind = kind;
        adjustment.reference = &reference;
        const std::size_t bytes =
            frame.view.pixel_count() * pixel_bytes(adjusted_format(frame.view.format, adjustment));
        std::vector<std::byte> by_gpu(bytes), by_cpu(bytes);
        std::string check;
        for (const bool gpu : {true, false}) {
          if (gpu && context.device() == nullptr) continue;
          AdjustRow row;
          row.width = w;
          row.height = h;
          row.format = to_string(format);
          row.kind = std::string(to_string(kind));
          row.applied = gpu ? "gpu" : "cpu";
          const RunOptions run{gpu ? Strategy::Gpu : Strategy::Cpu};
          std::vector<std::byte>& out = gpu ? by_gpu : by_cpu;
          try {
            const auto once = [&] {
              (void)adjust_image(context, frame.view, adjustment, out, run, gpu);
            };
            for (std::uint32_t i = 0; i < config.warmup; ++i) once();
            std::vector<double> times;
            for (std::uint32_t i = 0; i < config.repetitions; ++i) times.push_back(wall_ms(once));
            row.ms = vk::median(times);
            row.fps = row.ms > 0 ? 1000.0 / row.ms : 0.0;
          } catch (const Error& e) {
            if (e.kind() != ErrorKind::InvalidArgument && e.kind() != ErrorKind::Device) throw;
            row.check = std::string("not run: ") + e.what();
          }
          report.adjust.push_back(row);
        }
        // Both appliers ran: their bytes must agree.
        if (context.device() != nullptr && report.adjust.size() >= 2) {
          AdjustRow& gpu_row = report.adjust[report.adjust.size() - 2];
          AdjustRow& cpu_row = report.adjust.back();
          if (gpu_row.check.empty() && cpu_row.check.empty()) {
            gpu_row.check = cpu_row.check = by_gpu == by_cpu ? "exact" : "GPU and CPU bytes differ";
          }
        } else if (report.adjust.back().check.empty()) {
          report.adjust.back().check = "cpu only";
        }
      }
    }
  }
}

}  // namespace gpuhist::bench
