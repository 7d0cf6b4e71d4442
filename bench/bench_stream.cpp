#include "bench_stream.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "bench_images.hpp"
#include "bench_measure.hpp"
#include "count/gpu_stream.hpp"
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
        (void)stream_rate(counter, frame.view, options, row.in_flight, setup);
        const StreamResult r = stream_rate(counter, frame.view, options, row.frames, setup);
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

StreamResult stream_rate(count::GpuCounter& counter, const ImageView& frame,
                         const HistogramOptions& options, std::uint32_t frames,
                         const count::StreamSetup& setup) {
  count::GpuStream slots(counter, frame, options, setup);
  const count::StreamMode mode = setup.mode;
  const std::uint32_t k = slots.frames_per_submit();
  const auto write_all = [&](std::size_t i) {
    for (std::uint32_t j = 0; j < k; ++j) slots.write(i, frame, j);
  };
  // Every slot holds the same frame, written once, as a ring of frame
  // buffers filled by a decoder would be; or written before each submission.
  if (mode != count::StreamMode::Push) {
    for (std::size_t i = 0; i < slots.size(); ++i) write_all(i);
  }
  StreamResult out{Histogram(options.bins, is_colour(frame.format.layout))};
  out.queues = slots.queues();
  out.frames_per_submit = k;
  std::vector<Histogram> counted;
  const auto collect = [&](std::size_t i) {
    for (Histogram& h : slots.collect(i)) counted.push_back(std::move(h));
  };
  const std::uint32_t submissions = count::ceil_div(frames, k);
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t f = 0; f < submissions; ++f) {
    const std::size_t i = f % slots.size();
    if (slots.busy(i)) collect(i);
    if (mode == count::StreamMode::Push) write_all(i);
    slots.submit(i);
  }
  for (std::size_t n = 0; n < slots.size(); ++n) {
    const std::size_t i = (submissions + n) % slots.size();
    if (slots.busy(i)) collect(i);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.frames = submissions * k;
  out.histogram = counted.back();
  for (const Histogram& h : counted) {
    if (h != out.histogram) ++out.differing;
  }
  const double bytes = static_cast<double>(slots.frame_bytes()) * out.frames;
  out.gbps = out.seconds > 0 ? bytes / out.seconds / 1e9 : 0;
  out.fps = out.seconds > 0 ? out.frames / out.seconds : 0;
  return out;
}

}  // namespace gpuhist::bench
