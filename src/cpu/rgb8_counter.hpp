// The fast path of the `cpu` strategy for 8-bit RGB and RGBA pixels: red,
// green and blue counted by sample value (given their bins when the counters
// are added up), luminance terms from 256-entry tables and its bin by an exact
// multiply-shift, and four private copies of the counters so that runs of
// equal pixels do not stall on one counter.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::cpu {

// The luminance bin of 8-bit samples by three table lookups, exactly:
// min((r[red] + g[green] + b[blue]) >> kShift, N - 1), each table holding
// weight * value * m with m = ceil(N * 2^44 / (10000 * 255)).
struct LumaTables {
  static constexpr unsigned kShift = 44;
  explicit LumaTables(const HistogramOptions& options);
  std::array<std::uint64_t, 256> r{}, g{}, b{};
};

class Rgb8Counter {
 public:
  explicit Rgb8Counter(const HistogramOptions& options);

  // Adds rows [y0, y1) of a validated 8-bit RGB or RGBA image to `counts`
  // (4 x bins, channel-major: red, green, blue, luminance).
  void count(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
             std::span<std::uint64_t> counts) const;

 private:
  template <bool Identity>
  void count_rows(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
                  std::span<std::uint64_t> counts) const;
  // The rows of pixels `Step` bytes apart (RGB or RGBA); offsets and steps
  // are constants, which measured 20-25% faster than reading them at run time.
  template <bool Identity, std::size_t Step>
  void count_pixels(const ImageView& image, std::uint32_t y0, std::uint32_t y1,
                    std::span<std::uint64_t> counts) const;

  std::uint32_t bins_;
  std::array<std::uint32_t, 256> channel_bin_{};
  LumaTables luma_;
};

}  // namespace gpuhist::cpu
