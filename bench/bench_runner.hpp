// The GPU benchmark behind `gpuhist bench` and `gpuhist-bench`: every strategy
// over sizes and kinds of data, timed with GPU timestamps (pixels resident on
// the device) and wall clocks (pixels in host memory), next to the device's
// own copy rate measured in the same run. Depends on the engine only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpuhist/device_info.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"

namespace gpuhist::bench {

enum class DataKind { Random, Flat, Photo };
[[nodiscard]] std::string to_string(DataKind kind);

// RGBA8 pixels of a photograph; benchmark images are tiled from it.
struct Photo {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba;
};

// Reads a binary PPM (P6, 8-bit) or PAM (P7, RGB or RGB_ALPHA, 8-bit) file.
// Throws Error(Input) on anything else.
[[nodiscard]] Photo read_netpbm(const std::string& path);

// One pixel format and bin count to measure.
struct Case {
  PixelFormat format{ChannelLayout::RGBA, SampleType::U8};
  std::uint32_t bins = 256;
};

struct Config {
  std::string device = "auto";
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
  std::vector<DataKind> kinds;
  std::vector<Strategy> strategies;
  std::vector<Case> cases;  // the first case runs on every size; the others on the largest
  std::optional<Photo> photo;
  std::uint32_t repetitions = 10;  // timed runs per measurement (after warm-up runs)
  std::uint32_t warmup = 2;
  std::uint64_t single_max_pixels = 1ULL << 21;     // gpu-single is skipped above this
  std::uint64_t reference_max_pixels = 1ULL << 26;  // cpu-reference is skipped above this
  bool tune = false;                                // sweep the gpu strategy's knobs instead
  // Frame sizes of the host-memory stream (RGBA8 photo frames); none: no stream.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stream_sizes;
  std::uint32_t stream_frames = 60;
  std::uint32_t stream_in_flight = 3;
  std::uint32_t stream_queues = 1;        // queues the frames take in turn (at most the device's)
  std::uint32_t stream_batch = 1;         // frames counted by one submission
  std::uint32_t stream_copy_threads = 0;  // threads copying a pushed frame (0: by size)
  bool stream_cached = true;              // frames in host-cached memory (else upload memory)
  // Frame sizes of the adjustments (photo frames); none: not measured.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> adjust_sizes;
  std::vector<PixelFormat> adjust_formats{{ChannelLayout::RGB, SampleType::U8}};
  // One RGBA8 image in host memory to counts (`--e2e`): only these are measured.
  bool host_only = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> host_sizes;
};

// One image in host memory counted by one way of reaching the device (or the cpu strategy).
struct HostRow {
  std::uint32_t width = 0, height = 0;
  std::string memory;  // "pageable" (malloc, off a page boundary) or "page-aligned"
  std::string way;     // cpu, or the upload: auto, import, parts, staged
  double ms = 0.0;     // median wall time of the call, counts on the host
  double gbps = 0.0;   // image bytes per second
  double bus_ms = 0.0;  // the same bytes at the measured host-to-device copy rate
  std::string check;
};

// One adjustment of a frame: count, tables, apply, host memory to host memory.
struct AdjustRow {
  std::uint32_t width = 0, height = 0;
  std::string format;   // rgb8, rgb16, …
  std::string kind;     // equalize, clahe, autolevel, threshold
  std::string applied;  // gpu (counted by the gpu strategy) or cpu (the cpu strategy)
  double ms = 0.0;      // median wall time per frame
  double fps = 0.0;
  std::string check;  // "exact" when the GPU's bytes equal the CPU's
};

// A stream of frames in host memory counted by the gpu strategy.
struct StreamRow {
  std::uint32_t width = 0, height = 0;
  // "direct" (the shader reads host memory), "copy" (copied to the device
  // first) or "push" (as direct, the host copying each frame in first)
  std::string mode;
  std::uint32_t frames = 0, in_flight = 0;
  std::uint32_t queues = 0;  // queues the frames took in turn
  std::uint32_t batch = 1;   // frames per submission
  double fps = 0.0, gbps = 0.0;
  double upload_percent = 0.0;  // gbps over the host-to-device upload rate
  std::string check;
};

struct Row {
  std::uint32_t width = 0, height = 0;
  PixelFormat format{};
  std::uint32_t bins = 0;
  DataKind kind = DataKind::Random;
  Strategy strategy = Strategy::Gpu;
  std::string variant;            // tuning knobs, in tune mode
  std::optional<double> gpu_ms;   // median GPU time, pixels resident (GPU strategies)
  std::optional<double> wall_ms;  // median wall time from host memory, upload included
  double gbps = 0.0;              // bytes read per second, from gpu_ms (or wall_ms on the CPU)
  double gpixels = 0.0;           // pixels per second, likewise
  double copy_percent = 0.0;      // gbps over the device copy rate (the faster of the two)
  double read_percent = 0.0;      // gbps over the shader read rate: 100 is the kernel's floor
  std::string check;              // "exact", or what differed from the cpu strategy
};

struct Report {
  std::string date;  // UTC, ISO 8601
  std::uint32_t repetitions = 0;  // timed runs per measurement, as configured
  std::optional<DeviceInfo> device;
  double copy_gbps =
      0.0;  // device-local copy of the largest image, bytes read + written per second
  double copy_small_gbps = 0.0;   // the same for 64 MiB
  double upload_gbps = 0.0;       // host-visible to device-local copy
  double shader_copy_gbps = 0.0;  // a compute shader copying the largest image, read + write
  double shader_read_gbps = 0.0;  // a compute shader only reading the largest image
  std::vector<Row> rows;
  std::vector<StreamRow> stream;
  std::vector<AdjustRow> adjust;
  std::vector<HostRow> host;
  double empty_submission_ms = 0.0;  // an empty submission and its wait (--e2e)
  double storage_set_ms = 0.0;       // a descriptor set of three buffers made and released (--e2e)
};

// Runs the benchmark; `progress` receives a line per measurement. Throws
// gpuhist::Error when the device cannot be opened or fails.
[[nodiscard]] Report run(const Config& config, const std::function<void(const Row&)>& progress);

void print_table(const Report& report, std::ostream& out);
void print_json(const Report& report, std::ostream& out);

// The default configuration: full (large sizes, 10 repetitions) or quick
// (small sizes that finish in well under a minute on a software device).
[[nodiscard]] Config default_config(bool quick);

}  // namespace gpuhist::bench
