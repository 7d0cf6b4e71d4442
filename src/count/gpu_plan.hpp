// How the GPU strategies will count one image: derived once per call from the
// image, the options and the device's limits, then used for every batch.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include <optional>

#include "gpuhist/device_info.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"
#include "gpuhist/strategy.hpp"
#include "vulkan/pipelines.hpp"

namespace gpuhist::count {

// Software drivers cap the iterations of a shader loop, nested loops counted
// together (Mesa llvmpipe stops after 65535): grids, spans and waves are sized
// so that no invocation loops more than this many times.
inline constexpr std::uint32_t kMaxLoopIterations = 8192;

[[nodiscard]] constexpr std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::uint32_t>((a + b - 1) / b);
}

// Shared words of a workgroup's 16-bit counters, two to a word: 4 / split
// channels of one range of ceil(bins / ranges) bins.
[[nodiscard]] constexpr std::uint32_t halves_words(std::uint32_t bins, std::uint32_t split,
                                                   std::uint32_t ranges) noexcept {
  return (4 / split * ceil_div(bins, ranges) + 1) / 2;
}

// A run of pixels counted in one submission, tiled `width` pixels to a row.
struct Batch {
  std::uint32_t y0 = 0;  // first image row
  std::uint32_t x0 = 0;  // first pixel in that row (non-zero only when rows are split)
  std::uint32_t pixel_count = 0;
  std::uint32_t width = 0;  // pixels per tile row (the image width, or the piece of a row)
};

// Splits an image into batches of at most `max_pixels` pixels: whole rows
// where a row fits, otherwise pieces of single rows.
[[nodiscard]] std::vector<Batch> plan_batches(std::uint32_t width, std::uint32_t height,
                                              std::uint64_t max_pixels);

// Pixels in one wide load: 16 bytes of RGBA or grey pixels, or four RGB8 or
// two RGB16 pixels in three words.
[[nodiscard]] constexpr std::uint32_t pixels_per_load(std::uint64_t bpp) noexcept {
  return static_cast<std::uint32_t>(bpp % 3 == 0 ? 12 / bpp : 16 / bpp);
}

// Sizes that bound one submission's buffers. The defaults suit every device;
// tests shrink them to exercise batching and waves on small images.
struct GpuLimits {
  // Pixel bytes uploaded per batch; 0: by the device, 1 GiB but at most an
  // eighth of its memory, and at least 256 MiB. Each batch waits for the one
  // before: on an NVIDIA H200 a 1 GiB image counted from host memory 15-25%
  // faster in one batch than in four (2026-12-03).
  std::uint64_t max_batch_bytes = 0;
  std::uint64_t max_wave_bytes = 256ULL << 20;  // chunk-histogram bytes per wave
};

// Variants of the `gpu` strategy that lost on every device measured
// (docs/PERFORMANCE_JOURNAL.md): off unless the benchmark sets them, each still
// tested for exact counts.
struct GpuExperiments {
  std::optional<bool> uniform_runs;            // subgroup-wide adds for uniform pixels
  std::optional<bool> interleave;              // copies of one counter side by side
  std::optional<std::uint32_t> global_rounds;  // grouping rounds before global atomics (0)
  std::optional<bool> quad_runs;               // subgroups of one-colour loads add 4 at once
  // RGBA8: each 32 neighbouring invocations read their 32 16-byte loads as
  // four rows of 32 pixels, so that one atomic of theirs meets 32 neighbouring
  // pixels rather than every fourth of 128.
  std::optional<bool> rows;
};

// Knobs of the `gpu` strategy. Unset fields are derived from the device's
// limits; the benchmark sets them to search for better defaults.
struct GpuTuning {
  std::optional<std::uint32_t> group_size;       // invocations per workgroup
  std::optional<std::uint32_t> copies;           // private histograms per workgroup
  std::optional<std::uint32_t> copy_shift;       // invocation i uses copy (i >> shift) % copies
  std::optional<std::uint32_t> groups_per_unit;  // persistent workgroups per compute unit
  std::optional<bool> wide_loads;             // RGBA and grey in 16-byte loads, RGB in three words
  std::optional<std::uint32_t> unroll;        // wide loads per loop step
  std::optional<std::uint32_t> slice_pixels;  // pixels per dispatch (0: the whole batch)
  std::optional<std::uint32_t> merge_copies;  // global histograms, workgroup g adds to g % n
  std::optional<std::uint32_t> split;         // 1, 2 or 4 channel groups (default: fewest that fit)
  std::optional<bool> packed;  // 16-bit shared counters (default: only with ranges of bins)
  // Ranges of bins per channel, each counted in shared memory by its own
  // workgroups with 16-bit counters. 0 counts in global memory what shared
  // memory cannot hold; N uses at least N ranges (more where N do not fit);
  // unset, the fewest that fit, for integer samples of which one channel does
  // not fit in shared memory with 32-bit counters.
  std::optional<std::uint32_t> bin_ranges;
  // Ranges of bins of colour images counted from four planes of 16-bit bins
  // that a first pass writes (8 bytes per pixel of device memory), so that
  // each range reads its channel's plane rather than the whole image
  // (default: on, except in streams).
  std::optional<bool> planes;
  std::optional<bool> last_group_sums;  // no merge pass: the last workgroup sums the copies
  GpuExperiments experiments;
};

// Everything about one count() call that does not change between batches.
struct GpuPlan {
  Strategy strategy = Strategy::Gpu;
  std::vector<vk::SpecConstant> binning;  // channels, sample bits, bins, luma
  std::uint32_t bins = 0;
  VkDeviceSize histogram_bytes = 0;  // bins * 4 channels * 4 bytes
  std::uint32_t chunk_x = 256, chunk_y = 1;
  bool chunk_shared = true;
  std::uint32_t wave_chunks = 1;  // chunk histograms held at once
  std::uint32_t group_size = 256;
  std::uint32_t copies = 1;      // private histograms per workgroup (gpu)
  std::uint32_t copy_shift = 0;  // copy of invocation i: (i >> copy_shift) % copies (gpu)
  std::uint32_t groups_cap = 1;  // persistent workgroups (gpu)
  bool wide = false;          // pixels read in wide loads (RGBA, grey, RGB; not float colour) (gpu)
  bool uniform_runs = false;  // uniform subgroups' pixels added at once (subgroup build)
  bool interleave = false;    // copies of one counter side by side (gpu)
  std::uint32_t unroll = 1;   // wide loads per loop step (gpu)
  std::uint32_t slice_pixels = 0;  // pixels per dispatch, a multiple of 16; 0: all (gpu)
  std::uint32_t merge_copies = 1;  // global histograms workgroups add to, summed at the end (gpu)
  std::uint32_t split = 1;         // channel groups: each workgroup counts 4 / split channels (gpu)
  bool grey = false;               // one channel: every workgroup counts the last group (gpu)
  bool packed = false;             // two 16-bit shared counters per word, carrying to global (gpu)
  std::uint32_t ranges = 1;  // ranges of bins per channel, each counted by its own workgroups (gpu)
  std::uint32_t round_iterations = 0;  // loop steps between barriers with packed counters (gpu)
  bool planes = false;  // ranges count four planes of 16-bit bins a first pass writes (gpu)
  bool last_group_sums = false;     // the last workgroup sums the merge copies, no merge pass (gpu)
  std::uint32_t global_rounds = 0;  // rounds grouping a subgroup's equal bins before global atomics
  bool quad_runs = false;  // subgroups of four-equal-pixel loads add 4 at once (subgroup build)
  bool rows = false;       // RGBA8 loads of 32 invocations read as four rows of 32 pixels (gpu)
  std::vector<Batch> batches;
  std::uint64_t bpp = 0;

  // Bytes per pixel the counting pass reads: one 16-bit bin of its plane with planes.
  [[nodiscard]] std::uint64_t count_bpp() const noexcept { return planes ? 2 : bpp; }
  // Parts the workgroups form (channel groups times ranges of bins), each
  // striding over the whole image.
  [[nodiscard]] std::uint32_t channel_groups() const noexcept {
    return (grey ? 1 : split) * ranges;
  }
  // The `gpu` strategy merging into several global copies (the only one that does).
  [[nodiscard]] bool merged() const noexcept { return merge_copies > 1; }
  // Bytes of the merge copies and, after them, the ticket the workgroups of a
  // run take when the last of them sums the copies.
  [[nodiscard]] VkDeviceSize copies_bytes() const noexcept {
    return histogram_bytes * merge_copies + 16;
  }
};

// How the strategy `strategy` counts `image` (its shape and format: the
// pixels are not read) on a device of `device`'s limits: the batches within
// `limits`, and for `gpu` where its counters live (private copies, channel
// groups, 16-bit counters, ranges of bins or global memory) and how its
// workgroups are laid out, from `tuning` where it sets a knob. A pure
// function, tested without a device. `planes_allowed`: one planes buffer may
// serve the plan (not for streams, whose frames are in flight together).
// Throws Error(InvalidArgument) for a chunk shape the device cannot run.
[[nodiscard]] GpuPlan plan_gpu(const DeviceInfo& device, const GpuLimits& limits,
                               const GpuTuning& tuning, const ImageView& image,
                               const HistogramOptions& options, Strategy strategy, ChunkShape chunk,
                               bool planes_allowed = true);

}  // namespace gpuhist::count
