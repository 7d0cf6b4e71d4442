// CLAHE on the CPU: the reference the GPU applier is tested against.
#include <cmath>
#include <string>

#include "adjust/clahe_plan.hpp"
#include "core/row_parts.hpp"
#include "cpu/parallel.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

template <typename Sample>
void blend_rows(const ImageView& image, const adjust::ClahePlan& plan, std::byte* out,
                std::uint32_t y0, std::uint32_t y1) {
  const std::uint32_t channels = channel_count(image.format.layout);
  for (std::uint32_t y = y0; y < y1; ++y) {
    const auto* in = reinterpret_cast<const Sample*>(image.row(y));
    auto* dst = reinterpret_cast<Sample*>(out) + std::size_t{y} * image.width * channels;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      for (std::uint32_t c = 0; c < channels; ++c, ++in, ++dst) {
        *dst = c == 3 ? *in : static_cast<Sample>(plan.blend(x, y, plan.table_of(c), *in));
      }
    }
  }
}

}  // namespace

void validate(const ClaheOptions& options, PixelFormat format) {
  (void)tone_options(format);
  const auto tiles = [](std::uint32_t n) { return n >= 1 && n <= 256; };
  if (!tiles(options.tiles_x) || !tiles(options.tiles_y)) {
    throw Error(ErrorKind::InvalidArgument, "CLAHE needs 1 to 256 tiles across and down, not " +
                                                std::to_string(options.tiles_x) + "x" +
                                                std::to_string(options.tiles_y));
  }
  if (!std::isfinite(options.clip_limit) || options.clip_limit < 0.0) {
    throw Error(ErrorKind::InvalidArgument, "the CLAHE clip limit must be a number from 0 up");
  }
}

void clahe_cpu(const ImageView& image, const ClaheOptions& options, std::span<std::byte> out,
               const TileCounter& count) {
  validate(image);
  validate(options, image.format);
  const std::uint64_t bytes = image.pixel_count() * pixel_bytes(image.format);
  if (out.size() < bytes) {
    throw Error(ErrorKind::InvalidArgument, "the output needs " + std::to_string(bytes) + " bytes");
  }
  const HistogramOptions tone = tone_options(image.format, options.luma);
  const adjust::ClahePlan plan = adjust::make_clahe_plan(
      image, options,
      count ? count : [&](const ImageView& tile) { return cpu::count_parallel(tile, tone); });
  const std::uint32_t parts = row_parts(image.height, (1U << 18) / image.width + 1);
  for_row_parts(image.height, parts, [&](std::uint32_t, std::uint32_t y0, std::uint32_t y1) {
    if (image.format.sample == SampleType::U8) {
      blend_rows<std::uint8_t>(image, plan, out.data(), y0, y1);
    } else {
      blend_rows<std::uint16_t>(image, plan, out.data(), y0, y1);
    }
  });
}

}  // namespace gpuhist
