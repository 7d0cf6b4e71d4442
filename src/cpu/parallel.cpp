#include "cpu/parallel.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "core/binning.hpp"
#include "core/row_parts.hpp"
#include "cpu/rgb8_counter.hpp"

namespace gpuhist::cpu {
namespace {

// Private counts of one thread: four channels of `bins` counters, channel-major.
struct LocalCounts {
  explicit LocalCounts(std::uint32_t bin_count)
      : bins(bin_count), counts(std::size_t{bin_count} * 4, 0) {}
  std::size_t bins;
  std::vector<std::uint64_t> counts;
  void add(std::uint32_t bin, std::uint32_t channel) { ++counts[channel * bins + bin]; }
};

// Integer samples: channel bins from a table; luminance through the weighted
// sum s and floor(s * N / D) evaluated as floor(s * (N/D) + 0.5/D) in double.
// That is exact: s * N / D is either an integer or at least 1/D away from the
// next one, and the double rounding error (< 2^-52 * N) is far below 0.5/D.
template <typename T>
struct IntegerBinner {
  static constexpr std::uint32_t kMax = sizeof(T) == 1 ? 255U : 65535U;
  std::vector<std::uint32_t> channel_bins;
  binning::IntWeights weights;
  double scale;
  double offset;
  std::uint32_t last_bin;

  IntegerBinner(const HistogramOptions& options)
      : channel_bins(kMax + 1),
        weights(binning::int_weights(options.luma)),
        last_bin(options.bins - 1) {
    for (std::uint32_t v = 0; v <= kMax; ++v) {
      channel_bins[v] = binning::channel_bin(v, kMax, options.bins);
    }
    const double divisor = double{binning::kWeightSum} * kMax;
    scale = static_cast<double>(options.bins) / divisor;
    offset = 0.5 / divisor;
  }
  std::uint32_t luma(std::uint32_t r, std::uint32_t g, std::uint32_t b) const {
    const double x = static_cast<double>(binning::luma_sum(weights, r, g, b)) * scale + offset;
    return std::min(static_cast<std::uint32_t>(x), last_bin);
  }
};

template <typename T>
T load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Grey8: each value counted in one of four lanes in turn, so that runs of
// one value (flat areas) do not wait on the same counter, then the lanes
// given their bins. Each lane holds at most 2^31 counts between flushes.
void count_rows_grey8(const ImageView& image, const IntegerBinner<std::uint8_t>& binner,
                      std::uint32_t y0, std::uint32_t y1, LocalCounts& out) {
  std::array<std::array<std::uint32_t, 256>, 4> lanes{};
  std::uint64_t pending = 0;
  const auto flush = [&] {
    for (std::size_t v = 0; v < 256; ++v) {
      const std::uint64_t sum = std::uint64_t{lanes[0][v]} + lanes[1][v] + lanes[2][v] + lanes[3][v];
      out.counts[3 * out.bins + binner.channel_bins[v]] += sum;
    }
    lanes = {};
    pending = 0;
  };
  const std::uint32_t w = image.width;
  for (std::uint32_t y = y0; y < y1; ++y) {
    if (pending + w > (1ULL << 31)) flush();
    const auto* p = reinterpret_cast<const std::uint8_t*>(image.row(y));
    std::uint32_t x = 0;
    for (; x + 4 <= w; x += 4) {
      ++lanes[0][p[x]];
      ++lanes[1][p[x + 1]];
      ++lanes[2][p[x + 2]];
      ++lanes[3][p[x + 3]];
    }
    for (; x < w; ++x) ++lanes[0][p[x]];
    pending += w;
  }
  flush();
}

template <typename T, std::uint32_t Channels>
void count_rows_integer(const ImageView& image, const IntegerBinner<T>& binner, std::uint32_t y0,
                        std::uint32_t y1, LocalCounts& out) {
  const std::uint32_t* bins = binner.channel_bins.data();
  for (std::uint32_t y = y0; y < y1; ++y) {
    const std::byte* px = image.row(y);
    for (std::uint32_t x = 0; x < image.width; ++x, px += Channels * sizeof(T)) {
      if constexpr (Channels == 1) {
        out.add(bins[load<T>(px)], 3);
      } else {
        const std::uint32_t r = load<T>(px);
        const std::uint32_t g = load<T>(px + sizeof(T));
        const std::uint32_t b = load<T>(px + 2 * sizeof(T));
        out.add(bins[r], 0);
        out.add(bins[g], 1);
        out.add(bins[b], 2);
        out.add(binner.luma(r, g, b), 3);
      }
    }
  }
}

template <std::uint32_t Channels>
void count_rows_float(const ImageView& image, const HistogramOptions& options, std::uint32_t y0,
                      std::uint32_t y1, LocalCounts& out) {
  const auto weights = binning::float_weights(options.luma);
  const std::uint32_t n = options.bins;
  for (std::uint32_t y = y0; y < y1; ++y) {
    const std::byte* px = image.row(y);
    for (std::uint32_t x = 0; x < image.width; ++x, px += Channels * sizeof(float)) {
      if constexpr (Channels == 1) {
        out.add(binning::unit_bin(binning::clamp_unit(load<float>(px)), n), 3);
      } else {
        const float r = binning::clamp_unit(load<float>(px));
        const float g = binning::clamp_unit(load<float>(px + 4));
        const float b = binning::clamp_unit(load<float>(px + 8));
        out.add(binning::unit_bin(r, n), 0);
        out.add(binning::unit_bin(g, n), 1);
        out.add(binning::unit_bin(b, n), 2);
        out.add(binning::unit_bin(binning::float_luma(weights, r, g, b), n), 3);
      }
    }
  }
}

// Picks the row loop for the image's format.
template <std::uint32_t Channels>
void count_rows(const ImageView& image, const HistogramOptions& options, std::uint32_t y0,
                std::uint32_t y1, LocalCounts& out) {
  switch (image.format.sample) {
    case SampleType::U8: {
      const IntegerBinner<std::uint8_t> binner(options);
      if constexpr (Channels == 1) {
        count_rows_grey8(image, binner, y0, y1, out);
      } else {
        count_rows_integer<std::uint8_t, Channels>(image, binner, y0, y1, out);
      }
      break;
    }
    case SampleType::U16: {
      const IntegerBinner<std::uint16_t> binner(options);
      count_rows_integer<std::uint16_t, Channels>(image, binner, y0, y1, out);
      break;
    }
    case SampleType::F32:
      count_rows_float<Channels>(image, options, y0, y1, out);
      break;
  }
}

void count_range(const ImageView& image, const HistogramOptions& options, std::uint32_t y0,
                 std::uint32_t y1, const Rgb8Counter* rgb8, LocalCounts& out) {
  if (rgb8 != nullptr) {
    rgb8->count(image, y0, y1, out.counts);
    return;
  }
  switch (image.format.layout) {
    case ChannelLayout::Grey:
      count_rows<1>(image, options, y0, y1, out);
      break;
    case ChannelLayout::RGB:
      count_rows<3>(image, options, y0, y1, out);
      break;
    case ChannelLayout::RGBA:
      count_rows<4>(image, options, y0, y1, out);
      break;
  }
}

}  // namespace

std::uint32_t count_threads(std::uint32_t width, std::uint32_t height) {
  return row_parts(height, std::max<std::uint64_t>(1, 65536 / width));
}

Histogram count_parallel(const ImageView& image, const HistogramOptions& options,
                         std::uint32_t max_threads, const std::function<void()>& poll) {
  std::uint32_t threads = count_threads(image.width, image.height);
  if (max_threads != 0) threads = std::min(threads, max_threads);

  std::vector<LocalCounts> partial(threads, LocalCounts(options.bins));
  std::optional<Rgb8Counter> rgb8;
  if (image.format.sample == SampleType::U8 && is_colour(image.format.layout))
    rgb8.emplace(options);
  const Rgb8Counter* fast = rgb8 ? &*rgb8 : nullptr;
  // With `poll`, blocks of about a megapixel, `poll` before each of the calling
  // thread's; without, each thread's rows in one.
  const std::uint32_t block =
      poll ? std::max<std::uint32_t>(1, (1U << 20) / image.width) : image.height;
  std::atomic<bool> stop{false};
  // (Parts with no thread of their own run on the calling thread too.)
  const std::thread::id caller = std::this_thread::get_id();
  for_row_parts(image.height, threads, [&](std::uint32_t t, std::uint32_t y0, std::uint32_t y1) {
    for (std::uint32_t y = y0; y < y1; y += std::min(block, y1 - y)) {
      if (stop.load(std::memory_order_relaxed)) return;
      if (poll && std::this_thread::get_id() == caller) {
        try {
          poll();
        } catch (...) {
          stop.store(true, std::memory_order_relaxed);
          throw;
        }
      }
      count_range(image, options, y, y + std::min(block, y1 - y), fast, partial[t]);
    }
  });

  Histogram out(options.bins, is_colour(image.format.layout));
  for (Channel channel : out.channels()) {
    const auto c = static_cast<std::size_t>(channel);
    auto dst = out.counts(channel);
    for (const LocalCounts& local : partial) {
      for (std::size_t bin = 0; bin < dst.size(); ++bin)
        dst[bin] += local.counts[c * dst.size() + bin];
    }
  }
  return out;
}

}  // namespace gpuhist::cpu
