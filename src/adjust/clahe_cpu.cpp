// CLAHE on the CPU: the reference the GPU applier is tested against.
#include <cmath>
#include <string>

#include "adjust/clahe_plan.hpp"
#include "core/row_parts.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

// blend_values for every sample of rows [y0, y1), with each row's tables
// and each column's tiles and weights looked up once.
template <typename Sample>
void blend_rows(const ImageView& image, const adjust::ClahePlan& plan, std::byte* out,
                std::uint32_t y0, std::uint32_t y1) {
  const std::uint32_t channels = channel_count(image.format.layout);
  const std::size_t tile_stride = std::size_t{plan.lut_channels} * plan.size;
  const auto max = static_cast<float>(plan.size - 1);
  const adjust::ClaheAxis& cols = plan.columns;
  for (std::uint32_t y = y0; y < y1; ++y) {
    const std::uint16_t* top =
        plan.tables.data() + std::size_t{plan.rows.first[y]} * plan.tiles_x * tile_stride;
    const std::uint16_t* bottom =
        plan.tables.data() + std::size_t{plan.rows.second[y]} * plan.tiles_x * tile_stride;
    const float ya1 = plan.rows.first_weight[y], ya = plan.rows.second_weight[y];
    const auto* in = reinterpret_cast<const Sample*>(image.row(y));
    auto* dst = reinterpret_cast<Sample*>(out) + std::size_t{y} * image.width * channels;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const std::size_t c1 = cols.first[x] * tile_stride, c2 = cols.second[x] * tile_stride;
      const float xa1 = cols.first_weight[x], xa = cols.second_weight[x];
      for (std::uint32_t c = 0; c < channels; ++c, ++in, ++dst) {
        if (c == 3) {
          *dst = *in;  // alpha as it was
          continue;
        }
        const std::size_t k = std::size_t{plan.table_of(c)} * plan.size + *in;
        *dst = static_cast<Sample>(adjust::blend_values(top[c1 + k], top[c2 + k], bottom[c1 + k],
                                                        bottom[c2 + k], xa1, xa, ya1, ya, max));
      }
    }
  }
}

}  // namespace

void validate(const ClaheOptions& options, PixelFormat format) {
  (void)tone_options(format, options.luma);
  validate(options.channels);
  const auto tiles = [](std::uint32_t n) { return n >= 1 && n <= 256; };
  if (!tiles(options.tiles_x) || !tiles(options.tiles_y)) {
    throw Error(ErrorKind::InvalidArgument, "CLAHE needs 1 to 256 tiles across and down, not " +
                                                std::to_string(options.tiles_x) + "x" +
                                                std::to_string(options.tiles_y));
  }
  if (!std::isfinite(options.clip_limit) || options.clip_limit < 0.0) {
    throw Error(ErrorKind::InvalidArgument, "the CLAHE clip limit must be a number from 0 up");
  }
  // Every tile keeps a table (and counters) of every value: at most 2^27 values
  // in all, which 16-bit samples reach at about 2048 tables.
  const std::uint64_t tables =
      std::uint64_t{options.tiles_x} * options.tiles_y *
      (is_colour(format.layout) && options.channels == ToneChannels::Each ? 3U : 1U);
  const std::uint64_t values = format.sample == SampleType::U8 ? 256U : 65536U;
  if (tables * values > (1ULL << 27)) {
    throw Error(ErrorKind::InvalidArgument,
                "CLAHE with " + std::to_string(options.tiles_x) + "x" +
                    std::to_string(options.tiles_y) + " tiles needs " + std::to_string(tables) +
                    " tables of " + std::to_string(values) + " values, more than " +
                    std::to_string((1ULL << 27) / values) + "; use fewer tiles");
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
  const adjust::ClaheGeometry geometry = adjust::clahe_geometry(image, options);
  const adjust::ClahePlan plan =
      count ? adjust::make_clahe_plan(image, options, count)
            : adjust::make_clahe_plan(image, options, geometry,
                                      adjust::count_tiles_cpu(image, geometry, options.luma));
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
