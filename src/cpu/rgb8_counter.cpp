#include "cpu/rgb8_counter.hpp"

#include <algorithm>
#include <vector>

#include "core/binning.hpp"

namespace gpuhist::cpu {
namespace {

// floor(s * N / D) = (s * m) >> 44 with m = ceil(N * 2^44 / D), for every s <= D:
// m * D = N * 2^44 + e with 0 <= e < D, so s * m / 2^44 exceeds s * N / D by
// s * e / (D * 2^44) < 1 / D (as s, e < 2^22), less than the distance from a
// non-integer s * N / D to the next integer. s * m < 2^22 * 2^39 fits 64 bits,
// so the three weighted terms can be multiplied by m in the tables and added.
constexpr unsigned kShift = LumaTables::kShift;
constexpr std::uint64_t kDivisor = std::uint64_t{binning::kWeightSum} * 255;

// Pixels counted into 32-bit counters before they are added to the 64-bit ones.
constexpr std::uint64_t kFlushPixels = 1ULL << 30;

}  // namespace

LumaTables::LumaTables(const HistogramOptions& options) {
  const std::uint64_t magic = ((std::uint64_t{options.bins} << kShift) + kDivisor - 1) / kDivisor;
  const auto w = binning::int_weights(options.luma);
  for (std::uint32_t v = 0; v < 256; ++v) {
    r[v] = std::uint64_t{w.r} * v * magic;
    g[v] = std::uint64_t{w.g} * v * magic;
    b[v] = std::uint64_t{w.b} * v * magic;
  }
}

Rgb8Counter::Rgb8Counter(const HistogramOptions& options) : bins_(options.bins), luma_(options) {
  for (std::uint32_t v = 0; v < 256; ++v) {
    channel_bin_[v] = binning::channel_bin(v, 255, options.bins);
  }
}

void Rgb8Counter::count(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
                        std::span<std::uint64_t> counts) const {
  // With 256 bins an 8-bit sample is its own bin: no table lookup.
  if (bins_ == 256) {
    count_rows<true>(image, y0, y1, counts);
  } else {
    count_rows<false>(image, y0, y1, counts);
  }
}

template <bool Identity>
void Rgb8Counter::count_rows(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
                             std::span<std::uint64_t> counts) const {
  if (image.format.layout == ChannelLayout::RGB) {
    count_pixels<Identity, 3>(image, y0, y1, counts);
  } else {
    count_pixels<Identity, 4>(image, y0, y1, counts);
  }
}

template <bool Identity, std::size_t Step>
void Rgb8Counter::count_pixels(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
                               std::span<std::uint64_t> counts) const {
  // With 256 bins every offset is a constant.
  const std::size_t bins = Identity ? 256 : bins_;
  const std::uint32_t last = Identity ? 255 : bins_ - 1;
  // kCopies copies of the counters; pixel x counts into copy x % kCopies. A
  // copy holds red, green and blue by sample value (256 each: their bins
  // are looked up once, at the flush) and then the luminance bins.
  constexpr std::size_t kCopies = 4;
  const std::size_t block = 3 * 256 + bins;
  std::vector<std::uint32_t> local(kCopies * block, 0);
  const std::uint32_t* cb = channel_bin_.data();
  const auto flush = [&] {
    for (std::size_t i = 0; i < block; ++i) {
      std::uint64_t sum = 0;
      for (std::size_t k = 0; k < kCopies; ++k) sum += local[k * block + i];
      if (sum == 0) continue;
      if (i < 3 * 256) {
        const std::size_t value = i % 256;
        counts[(i / 256) * bins + (Identity ? value : cb[value])] += sum;
      } else {
        counts[3 * bins + (i - 3 * 256)] += sum;
      }
    }
    std::fill(local.begin(), local.end(), 0);
  };
  const std::uint64_t* lr = luma_.r.data();
  const std::uint64_t* lg = luma_.g.data();
  const std::uint64_t* lb = luma_.b.data();
  const auto add = [&](std::uint32_t* h, std::uint32_t r, std::uint32_t g, std::uint32_t b) {
    ++h[r];
    ++h[256 + g];
    ++h[512 + b];
    const auto l = static_cast<std::uint32_t>((lr[r] + lg[g] + lb[b]) >> kShift);
    ++h[768 + std::min(l, last)];
  };
  const auto one = [&](std::uint32_t* h, const std::uint8_t* p) { add(h, p[0], p[1], p[2]); };
  std::uint64_t pending = 0;
  for (std::uint32_t y = y0; y < y1; ++y) {
    const auto* px = reinterpret_cast<const std::uint8_t*>(image.row(y));
    std::uint32_t x = 0;
    for (; x + kCopies <= image.width; x += kCopies, px += kCopies * Step) {
      for (std::size_t k = 0; k < kCopies; ++k) one(local.data() + k * block, px + k * Step);
    }
    for (; x < image.width; ++x, px += Step) one(local.data(), px);
    pending += image.width;
    if (pending >= kFlushPixels) {
      flush();
      pending = 0;
    }
  }
  flush();
}

}  // namespace gpuhist::cpu
