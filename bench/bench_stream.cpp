#include "bench_stream.hpp"

#include <string>

#include "bench_images.hpp"
#include "bench_measure.hpp"
#include "cpu/parallel.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist::bench {

void run_stream(const Config& config, count::GpuCounter& counter, Report& report) {
  const Case rgba8{{ChannelLayout::RGBA, SampleType::U8}, 256};
  for (const auto& [w, h] : config.stream_sizes) {
    const Pixels frame =
        make_pixels(rgba8, w, h, config.photo ? DataKind::Photo : DataKind::Random, config.photo);
    const HistogramOptions options{256};
    const Histogram expected = cpu::count_parallel(frame.view, options);
    for (count::StreamMode mode :
         {count::StreamMode::Direct, count::StreamMode::Copy, count::StreamMode::Push}) {
      StreamRow row;
      row.width = w;
      row.height = h;
      row.mode = mode == count::StreamMode::Direct ? "direct"
                 : mode == count::StreamMode::Copy ? "copy"
                                                   : "push";
      row.frames = config.stream_frames;
      row.in_flight = config.stream_in_flight;
      try {
        // A short run first, so that the timed one starts warm.
        count::StreamSetup setup;
        setup.slots = row.in_flight;
        setup.mode = mode;
        setup.queues = config.stream_queues;
        setup.frames_per_submit = config.stream_batch;
        setup.copy_threads = config.stream_copy_threads;
        setup.cached = config.stream_cached;
        (void)counter.stream(frame.view, options, row.in_flight, setup);
        const count::StreamResult r = counter.stream(frame.view, options, row.frames, setup);
        row.frames = r.frames;
        row.batch = r.frames_per_submit;
        row.queues = r.queues;
        row.fps = r.fps;
        row.gbps = r.gbps;
        row.upload_percent = report.upload_gbps > 0 ? 100.0 * r.gbps / report.upload_gbps : 0.0;
        row.check = r.differing > 0 ? std::to_string(r.differing) + " frames differ from the last"
                                    : compare(r.histogram, expected);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::InvalidArgument && e.kind() != ErrorKind::Device) throw;
        row.check = std::string("not run: ") + e.what();
      }
      report.stream.push_back(row);
    }
  }
}

}  // namespace gpuhist::bench
