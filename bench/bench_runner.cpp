#include "bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "gpuhist/error.hpp"
#include "vulkan/device.hpp"
#include "vulkan/device_select.hpp"
#include "vulkan/gpu_counter.hpp"
#include "vulkan/instance.hpp"
#include "vulkan/timestamps.hpp"

namespace gpuhist::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Pixels of one benchmark image, 16-byte aligned.
struct Pixels {
  std::vector<std::uint32_t> storage;
  ImageView view;
};

std::uint64_t next(std::uint64_t& state) {  // xorshift64*: fast, deterministic
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}

// RGBA8 source pixels of a kind, then converted to the case's format.
Pixels make_pixels(const Case& c, std::uint32_t width, std::uint32_t height, DataKind kind,
                   const std::optional<Photo>& photo) {
  const std::uint64_t count = std::uint64_t{width} * height;
  std::vector<std::uint32_t> rgba(count);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  switch (kind) {
    case DataKind::Random:
      for (std::uint64_t i = 0; i < count; i += 2) {
        const std::uint64_t r = next(state);
        rgba[i] = static_cast<std::uint32_t>(r);
        if (i + 1 < count) rgba[i + 1] = static_cast<std::uint32_t>(r >> 32);
      }
      break;
    case DataKind::Flat:
      std::fill(rgba.begin(), rgba.end(), 0xFF3C8AD2U);
      break;
    case DataKind::Photo:
      if (!photo) throw Error(ErrorKind::InvalidArgument, "the photo data kind needs a photo");
      for (std::uint32_t y = 0; y < height; ++y) {
        const std::uint8_t* row =
            photo->rgba.data() + std::size_t{y % photo->height} * photo->width * 4;
        for (std::uint32_t x = 0; x < width; ++x) {
          std::memcpy(&rgba[std::size_t{y} * width + x], row + std::size_t{x % photo->width} * 4,
                      4);
        }
      }
      break;
  }
  Pixels out;
  const std::uint32_t channels = channel_count(c.format.layout);
  const std::uint64_t bytes = count * pixel_bytes(c.format);
  out.storage.resize(static_cast<std::size_t>((bytes + 15) / 16 * 4));
  out.view = ImageView::packed(out.storage.data(), width, height, c.format);
  auto* dst = reinterpret_cast<std::uint8_t*>(out.storage.data());
  for (std::uint64_t i = 0; i < count; ++i) {
    for (std::uint32_t ch = 0; ch < channels; ++ch) {
      const std::uint32_t v = (rgba[i] >> (8 * ch)) & 0xFF;
      const std::uint64_t at = i * channels + ch;
      switch (c.format.sample) {
        case SampleType::U8:
          dst[at] = static_cast<std::uint8_t>(v);
          break;
        case SampleType::U16: {
          // Random data spans all 16 bits; other kinds scale 8-bit values exactly.
          const auto s = static_cast<std::uint16_t>(
              kind == DataKind::Random ? next(state) : std::uint64_t{v} * 257);
          std::memcpy(dst + at * 2, &s, 2);
          break;
        }
        case SampleType::F32: {
          const float f = static_cast<float>(v) / 255.0f;
          std::memcpy(dst + at * 4, &f, 4);
          break;
        }
      }
    }
  }
  return out;
}

template <typename F>
double wall_ms(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::ostringstream out;
  out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

std::string compare(const Histogram& actual, const Histogram& expected) {
  if (actual == expected) return "exact";
  for (Channel channel : expected.channels()) {
    const auto a = actual.counts(channel);
    const auto e = expected.counts(channel);
    for (std::size_t bin = 0; bin < e.size(); ++bin) {
      if (a[bin] != e[bin]) {
        return "MISMATCH " + std::string(to_string(channel)) + "[" + std::to_string(bin) + "]";
      }
    }
  }
  return "MISMATCH";
}

// The knobs a tuning variant sets; "auto" for those left to the device's defaults.
std::string describe(const vk::GpuTuning& t) {
  std::ostringstream out;
  const auto knob = [&](const char* name, const auto& value) {
    if (out.tellp() > 0) out << ' ';
    out << name << ' ';
    if (value) {
      out << +*value;
    } else {
      out << "auto";
    }
  };
  knob("group", t.group_size);
  knob("copies", t.copies);
  if (t.interleave.value_or(false)) out << " interleaved";
  knob("per-unit", t.groups_per_unit);
  knob("unroll", t.unroll);
  knob("wide", t.wide_loads);
  knob("uniform", t.uniform_runs);
  knob("slice", t.slice_pixels);
  knob("merge", t.merge_copies);
  knob("split", t.split);
  knob("packed", t.packed);
  knob("last-group", t.last_group_sums);
  knob("quad-runs", t.quad_runs);
  knob("global-rounds", t.global_rounds);
  knob("ranges", t.bin_ranges);
  knob("planes", t.planes);
  return out.str();
}

// Histograms larger than shared memory with four channels: channel groups
// against packed 16-bit counters, at several workgroups per unit; then two
// channel groups with one pixel per load (not two) and with 1 or 4 loads in flight.
std::vector<vk::GpuTuning> large_histogram_grid() {
  std::vector<vk::GpuTuning> grid;
  for (std::uint32_t per_unit : {4U, 8U, 16U}) {
    for (int kind = 0; kind < 3; ++kind) {
      vk::GpuTuning t;
      t.groups_per_unit = per_unit;
      if (kind == 0) t.packed = true;
      if (kind == 1) t.split = 2;
      if (kind == 2) t.split = 4;
      grid.push_back(t);
    }
  }
  for (int kind = 0; kind < 3; ++kind) {
    vk::GpuTuning t;
    t.groups_per_unit = 8;
    t.split = 2;
    if (kind == 0) t.wide_loads = false;
    t.unroll = kind == 1 ? 1U : 4U;
    grid.push_back(t);
  }
  return grid;
}

// Histograms of which one channel does not fit in shared memory (65536
// bins): counted in global memory (the default before ranges of bins, 16
// global copies, 4 workgroups per unit), against ranges of bins in 16-bit
// counters at 2 or 4 workgroups per unit with 1, 2 or 4 loads in flight, 8
// workgroups per unit, half-size workgroups, 16 global copies, one range more,
// and colour pixels read by every range instead of planes of bins.
std::vector<vk::GpuTuning> ranged_histogram_grid() {
  std::vector<vk::GpuTuning> grid;
  vk::GpuTuning global;
  global.bin_ranges = 0;
  global.merge_copies = 16;
  global.groups_per_unit = 4;
  grid.push_back(global);
  for (std::uint32_t per_unit : {2U, 4U}) {
    for (std::uint32_t unroll : {1U, 2U, 4U}) {
      vk::GpuTuning t;
      t.groups_per_unit = per_unit;
      t.unroll = unroll;
      grid.push_back(t);
    }
  }
  vk::GpuTuning more_groups;
  more_groups.groups_per_unit = 8;
  grid.push_back(more_groups);
  vk::GpuTuning half_groups;
  half_groups.group_size = 512;
  half_groups.groups_per_unit = 4;
  grid.push_back(half_groups);
  vk::GpuTuning merge;
  merge.merge_copies = 16;
  grid.push_back(merge);
  vk::GpuTuning more_ranges;
  more_ranges.bin_ranges = 4;
  grid.push_back(more_ranges);
  vk::GpuTuning pixels;
  pixels.planes = false;
  grid.push_back(pixels);
  return grid;
}

std::vector<vk::GpuTuning> tuning_grid(const DeviceInfo& info) {
  std::uint32_t warp_shift = 0;
  for (std::uint32_t s = std::max(1U, info.subgroup_size); s > 1; s >>= 1) ++warp_shift;
  const auto make = [](std::uint32_t group, std::uint32_t copies, std::uint32_t shift,
                       std::uint32_t per_unit, std::uint32_t unroll, bool interleave,
                       bool uniform) {
    vk::GpuTuning t;
    t.group_size = group;
    t.copies = copies;
    t.copy_shift = shift;
    t.groups_per_unit = per_unit;
    t.unroll = unroll;
    t.interleave = interleave;
    t.uniform_runs = uniform;
    t.wide_loads = true;
    return t;
  };
  std::vector<vk::GpuTuning> grid;
  // One global histogram or 16 for the workgroups' merges (summed by a pass,
  // or by the last workgroup), against pixels per dispatch (0: the whole image in one).
  for (int merge = 0; merge < 3; ++merge) {
    for (std::uint32_t slice : {0U, 1U << 22, 1U << 23, 1U << 25}) {
      vk::GpuTuning t = make(512, 1, 0, 8, 1, false, false);
      t.slice_pixels = slice;
      t.merge_copies = merge == 0 ? 1U : 16U;
      t.last_group_sums = merge == 2;
      grid.push_back(t);
    }
  }
  // Workgroups per unit, workgroup sizes, unrolled loads, several private
  // copies, subgroup votes: each against the defaults (32 Mpixel slices, 16 merge copies).
  for (vk::GpuTuning t :
       {make(512, 1, 0, 2, 1, false, false), make(512, 1, 0, 4, 1, false, false),
        make(512, 1, 0, 16, 1, false, false), make(256, 1, 0, 16, 1, false, false),
        make(1024, 1, 0, 4, 1, false, false), make(1024, 1, 0, 2, 1, false, false),
        make(512, 1, 0, 8, 2, false, false), make(512, 1, 0, 4, 2, false, false),
        make(1024, 1, 0, 4, 2, false, false), make(256, 5, warp_shift, 8, 1, false, false),
        make(512, 1, 0, 8, 1, false, true),
        // Fewer, larger workgroups (less to clear and merge on small images).
        make(1024, 1, 0, 1, 1, false, false), make(1024, 1, 0, 1, 2, false, false),
        make(1024, 1, 0, 2, 2, false, false),
        // Neighbouring invocations in different copies of each counter, side by
        // side: a subgroup's random bins meet in fewer banks.
        make(512, 2, 0, 4, 2, true, false)}) {
    t.slice_pixels = 1U << 25;
    t.merge_copies = 16;
    t.last_group_sums = true;
    grid.push_back(t);
  }
  // Around the defaults (1024 invocations, one workgroup per unit, two loads
  // in flight): fewer merge copies, a merge pass, one-colour loads added at
  // once, two merge copies, two workgroups per unit.
  for (int variant = 0; variant < 6; ++variant) {
    vk::GpuTuning t = make(1024, 1, 0, variant == 5 ? 2 : 1, 2, false, false);
    t.slice_pixels = 1U << 25;
    t.merge_copies = variant == 0 || variant == 5 ? 4U
                     : variant == 1               ? 8U
                     : variant == 4               ? 2U
                                                  : 16U;
    t.last_group_sums = variant != 2;
    t.quad_runs = variant == 3;
    grid.push_back(t);
  }
  if (info.max_invocations < 1024)
    std::erase_if(grid, [](const auto& t) { return *t.group_size > 512; });
  return grid;
}

// Keeps the GPU's shader cores busy (a compute-shader copy: the copy engine
// alone does not raise their clocks) until about `ms` milliseconds have
// passed, so that clocks have left their idle state before anything is timed.
void warm_up(vk::GpuCounter& counter, double ms) {
  const auto start = Clock::now();
  while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < ms) {
    // Many copies per call: each call allocates its two buffers.
    (void)counter.shader_copy_rate(256ULL << 20, 200);
  }
}

// Profiles with enough warm-up runs to cover about 25 ms of GPU time.
vk::Profile timed_profile(vk::GpuCounter& counter, const ImageView& image,
                          const HistogramOptions& options, Strategy strategy,
                          std::uint32_t repetitions, std::uint32_t min_warmup,
                          std::vector<double>& timed) {
  const vk::Profile probe = counter.profile(image, options, strategy, ChunkShape::Row256x1, 1);
  const double once = std::max(probe.gpu_ms.front(), 1e-3);
  const auto warmup = static_cast<std::uint32_t>(
      std::clamp(std::ceil(25.0 / once), static_cast<double>(min_warmup), 200.0));
  vk::Profile p =
      counter.profile(image, options, strategy, ChunkShape::Row256x1, warmup + repetitions);
  timed.assign(p.gpu_ms.begin() + warmup, p.gpu_ms.end());
  return p;
}

}  // namespace

std::string to_string(DataKind kind) {
  switch (kind) {
    case DataKind::Random:
      return "random";
    case DataKind::Flat:
      return "one-colour";
    case DataKind::Photo:
      return "photo";
  }
  return "?";
}

Photo read_netpbm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, path + ": cannot open");
  std::string magic;
  in >> magic;
  Photo photo;
  std::uint32_t channels = 3;
  unsigned max_value = 0;
  if (magic == "P6") {
    in >> photo.width >> photo.height >> max_value;
    in.get();
  } else if (magic == "P7") {
    std::string key;
    while (in >> key && key != "ENDHDR") {
      if (key == "WIDTH")
        in >> photo.width;
      else if (key == "HEIGHT")
        in >> photo.height;
      else if (key == "DEPTH")
        in >> channels;
      else if (key == "MAXVAL")
        in >> max_value;
      else
        std::getline(in, key);
    }
    in.get();
  }
  if (!in || max_value != 255 || (channels != 3 && channels != 4) || photo.width == 0 ||
      photo.height == 0) {
    throw Error(ErrorKind::Input, path + ": not an 8-bit binary PPM or PAM image");
  }
  std::vector<std::uint8_t> raw(std::size_t{photo.width} * photo.height * channels);
  in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
  if (!in) throw Error(ErrorKind::Input, path + ": truncated image data");
  photo.rgba.resize(std::size_t{photo.width} * photo.height * 4);
  for (std::size_t i = 0; i < std::size_t{photo.width} * photo.height; ++i) {
    for (std::uint32_t c = 0; c < 3; ++c) photo.rgba[i * 4 + c] = raw[i * channels + c];
    photo.rgba[i * 4 + 3] = channels == 4 ? raw[i * channels + 3] : 255;
  }
  return photo;
}

namespace {

struct Timing {
  double ms = 0;
  std::string check;  // "exact", or the first difference of any round
};

// The GPU time of a strategy: preparing the image left the GPU idle, and its
// clocks fall within a second of idling and rise again over the next, so on a
// hardware GPU the measurement is warmed up, taken three times, and the
// fastest median is kept.
Timing measure(vk::GpuCounter& counter, const ImageView& image, const HistogramOptions& options,
               Strategy strategy, std::uint32_t runs, std::uint32_t min_warmup,
               const Histogram& expected) {
  const bool hardware = counter.device_info().hardware();
  warm_up(counter, hardware ? 300.0 : 0.0);
  Timing t{std::numeric_limits<double>::infinity(), "exact"};
  for (int round = 0; round < (hardware && runs > 1 ? 3 : 1); ++round) {
    std::vector<double> timed;
    const vk::Profile p = timed_profile(counter, image, options, strategy, runs, min_warmup, timed);
    t.ms = std::min(t.ms, vk::median(timed));
    if (t.check == "exact") t.check = compare(p.histogram, expected);
  }
  return t;
}

// Frames of the photograph (random pixels without one) in host memory, counted
// with several in flight: read in place, copied to the device first, and
// copied by the host into their slot before each submission (as
// FrameStream::push does).
void run_stream(const Config& config, vk::GpuCounter& counter, Report& report) {
  const Case rgba8{{ChannelLayout::RGBA, SampleType::U8}, 256};
  for (const auto& [w, h] : config.stream_sizes) {
    const Pixels frame =
        make_pixels(rgba8, w, h, config.photo ? DataKind::Photo : DataKind::Random, config.photo);
    const HistogramOptions options{256};
    const Histogram expected = cpu::count_parallel(frame.view, options);
    for (vk::StreamMode mode :
         {vk::StreamMode::Direct, vk::StreamMode::Copy, vk::StreamMode::Push}) {
      StreamRow row;
      row.width = w;
      row.height = h;
      row.mode = mode == vk::StreamMode::Direct ? "direct"
                 : mode == vk::StreamMode::Copy ? "copy"
                                                : "push";
      row.frames = config.stream_frames;
      row.in_flight = config.stream_in_flight;
      try {
        // A short run first, so that the timed one starts warm.
        vk::StreamSetup setup;
        setup.slots = row.in_flight;
        setup.mode = mode;
        setup.queues = config.stream_queues;
        setup.frames_per_submit = config.stream_batch;
        setup.copy_threads = config.stream_copy_threads;
        setup.cached = config.stream_cached;
        (void)counter.stream(frame.view, options, row.in_flight, setup);
        const vk::StreamResult r = counter.stream(frame.view, options, row.frames, setup);
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

}  // namespace

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
  } else {
    config.sizes = {{2448, 1505}, {7680, 4320}, {16384, 16384}};
    config.cases = {{rgba8, 256}, {rgba16, 4096}, {rgba16, 65536}, {rgbaf, 1024}};
    config.stream_sizes = {{1920, 1080}, {3840, 2160}, {7680, 4320}};
  }
  return config;
}

Report run(const Config& config, const std::function<void(const Row&)>& progress) {
  Report report;
  report.date = now_utc();
  auto instance = vk::Instance::create();
  std::unique_ptr<vk::Device> device;
  if (instance && config.device != "cpu") device = vk::open_device(*instance, config.device);
  if (device) report.device = device->info();

  std::uint64_t largest_bytes = 0;
  for (const auto& [w, h] : config.sizes) {
    for (const Case& c : config.cases) {
      largest_bytes = std::max(largest_bytes, std::uint64_t{w} * h * pixel_bytes(c.format));
    }
  }
  std::unique_ptr<vk::GpuCounter> counter;
  if (device) {
    vk::GpuLimits limits;
    limits.max_batch_bytes = std::max<std::uint64_t>(largest_bytes, limits.max_batch_bytes);
    counter = std::make_unique<vk::GpuCounter>(*device, limits);
    const std::uint64_t copy_bytes = std::clamp<std::uint64_t>(largest_bytes, 1 << 20, 1ULL << 30);
    warm_up(*counter, device->info().hardware() ? 500.0 : 0.0);
    report.copy_gbps = counter->copy_rate(copy_bytes, config.repetitions);
    report.copy_small_gbps = counter->copy_rate(64ULL << 20, config.repetitions);
    // Uploads of at least 64 MiB: small copies measure latency, not the bus.
    report.upload_gbps = counter->upload_rate(
        std::clamp<std::uint64_t>(largest_bytes, 64ULL << 20, 256ULL << 20), config.repetitions);
    report.shader_copy_gbps = counter->shader_copy_rate(copy_bytes, config.repetitions);
    report.shader_read_gbps = counter->shader_read_rate(copy_bytes, config.repetitions);
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
          for (const vk::GpuTuning& tuning : grid) {
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
  return report;
}

namespace {

std::string fixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

}  // namespace

void print_table(const Report& report, std::ostream& out) {
  out << "date " << report.date << '\n';
  if (report.device) {
    out << "device " << report.device->name << " (" << gpuhist::to_string(report.device->type)
        << "), driver " << report.device->driver_name << ' ' << report.device->driver_info
        << ", Vulkan " << report.device->api_version << '\n'
        << "device copy rate " << fixed(report.copy_gbps, 1) << " GB/s (read + write; "
        << fixed(report.copy_small_gbps, 1) << " GB/s for 64 MiB); host-to-device upload "
        << fixed(report.upload_gbps, 1) << " GB/s; shader copy "
        << fixed(report.shader_copy_gbps, 1) << " GB/s (read + write); shader read "
        << fixed(report.shader_read_gbps, 1) << " GB/s\n";
  } else {
    out << "device none (CPU strategies only)\n";
  }
  out << std::left << std::setw(12) << "size" << std::setw(8) << "format" << std::setw(7) << "bins"
      << std::setw(11) << "data" << std::setw(19) << "strategy" << std::right << std::setw(10)
      << "GPU ms" << std::setw(10) << "wall ms" << std::setw(9) << "GB/s" << std::setw(9)
      << "Gpix/s" << std::setw(8) << "% copy" << std::setw(8) << "% read"
      << "  check\n";
  for (const Row& r : report.rows) {
    out << std::left << std::setw(12) << (std::to_string(r.width) + "x" + std::to_string(r.height))
        << std::setw(8) << to_string(r.format) << std::setw(7) << r.bins << std::setw(11)
        << to_string(r.kind) << std::setw(19) << std::string(gpuhist::to_string(r.strategy))
        << std::right << std::setw(10) << (r.gpu_ms ? fixed(*r.gpu_ms, 3) : "-") << std::setw(10)
        << (r.wall_ms ? fixed(*r.wall_ms, 2) : "-") << std::setw(9) << fixed(r.gbps, 1)
        << std::setw(9) << fixed(r.gpixels, 2) << std::setw(8)
        << (r.gpu_ms ? fixed(r.copy_percent, 1) : "-") << std::setw(8)
        << (r.gpu_ms ? fixed(r.read_percent, 1) : "-") << "  " << r.check;
    if (!r.variant.empty()) out << "  [" << r.variant << "]";
    out << '\n';
  }
  if (report.stream.empty()) return;
  out << "host-memory stream (gpu strategy, RGBA8 photo frames)\n"
      << std::left << std::setw(12) << "size" << std::setw(8) << "mode" << std::right
      << std::setw(8) << "frames" << std::setw(11) << "in flight" << std::setw(7) << "batch"
      << std::setw(8) << "queues" << std::setw(10) << "fps" << std::setw(9) << "GB/s"
      << std::setw(10) << "% upload"
      << "  check\n";
  for (const StreamRow& r : report.stream) {
    out << std::left << std::setw(12) << (std::to_string(r.width) + "x" + std::to_string(r.height))
        << std::setw(8) << r.mode << std::right << std::setw(8) << r.frames << std::setw(11)
        << r.in_flight << std::setw(7) << r.batch << std::setw(8) << r.queues << std::setw(10)
        << fixed(r.fps, 1) << std::setw(9) << fixed(r.gbps, 1) << std::setw(10)
        << fixed(r.upload_percent, 1) << "  " << r.check << '\n';
  }
}

void print_json(const Report& report, std::ostream& out) {
  nlohmann::ordered_json j;
  j["date"] = report.date;
  if (report.device) {
    j["device"] = {{"name", report.device->name},
                   {"type", gpuhist::to_string(report.device->type)},
                   {"driver", report.device->driver_name + " " + report.device->driver_info},
                   {"vulkan", report.device->api_version}};
  } else {
    j["device"] = nullptr;
  }
  j["copy_gbps"] = report.copy_gbps;
  j["copy_64mib_gbps"] = report.copy_small_gbps;
  j["upload_gbps"] = report.upload_gbps;
  j["shader_copy_gbps"] = report.shader_copy_gbps;
  j["shader_read_gbps"] = report.shader_read_gbps;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Row& r : report.rows) {
    nlohmann::ordered_json row;
    row["width"] = r.width;
    row["height"] = r.height;
    row["format"] = to_string(r.format);
    row["bins"] = r.bins;
    row["data"] = to_string(r.kind);
    row["strategy"] = std::string(gpuhist::to_string(r.strategy));
    if (!r.variant.empty()) row["variant"] = r.variant;
    row["gpu_ms"] = r.gpu_ms ? nlohmann::ordered_json(*r.gpu_ms) : nullptr;
    row["wall_ms"] = r.wall_ms ? nlohmann::ordered_json(*r.wall_ms) : nullptr;
    row["gbps"] = r.gbps;
    row["gpixels_per_s"] = r.gpixels;
    row["copy_percent"] = r.copy_percent;
    row["read_percent"] = r.read_percent;
    row["check"] = r.check;
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  nlohmann::ordered_json stream = nlohmann::ordered_json::array();
  for (const StreamRow& r : report.stream) {
    stream.push_back({{"width", r.width},
                      {"height", r.height},
                      {"mode", r.mode},
                      {"frames", r.frames},
                      {"in_flight", r.in_flight},
                      {"frames_per_submission", r.batch},
                      {"queues", r.queues},
                      {"fps", r.fps},
                      {"gbps", r.gbps},
                      {"upload_percent", r.upload_percent},
                      {"check", r.check}});
  }
  j["stream"] = std::move(stream);
  out << j.dump(2) << '\n';
}

}  // namespace gpuhist::bench
