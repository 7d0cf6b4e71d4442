#include "adjust/clahe_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/binning.hpp"
#include "core/row_parts.hpp"
#include "gpuhist/error.hpp"

namespace gpuhist::adjust {
namespace {

// OpenCV's BORDER_REFLECT_101 index into 0..len-1 (cv::borderInterpolate).
std::int64_t reflect_101(std::int64_t p, std::int64_t len) {
  if (len == 1) return 0;
  while (p < 0 || p >= len) p = p < 0 ? -p : 2 * len - 2 - p;
  return p;
}

// The image extended by reflection to a whole number of tiles, as OpenCV's
// CLAHE extends it when either side does not divide (both sides then grow).
struct Extended {
  std::vector<std::byte> pixels;
  ImageView view;
};

Extended extend(const ImageView& image, std::uint32_t tiles_x, std::uint32_t tiles_y) {
  Extended ext;
  const std::uint32_t width = image.width + tiles_x - image.width % tiles_x;
  const std::uint32_t height = image.height + tiles_y - image.height % tiles_y;
  const std::size_t bpp = pixel_bytes(image.format);
  ext.pixels.resize(std::size_t{width} * height * bpp);
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::byte* in = image.row(static_cast<std::uint32_t>(reflect_101(y, image.height)));
    std::byte* out = ext.pixels.data() + std::size_t{y} * width * bpp;
    std::memcpy(out, in, image.width * bpp);
    for (std::uint32_t x = image.width; x < width; ++x) {
      std::memcpy(out + x * bpp, in + static_cast<std::size_t>(reflect_101(x, image.width)) * bpp,
                  bpp);
    }
  }
  ext.view = ImageView::packed(ext.pixels.data(), width, height, image.format);
  return ext;
}

// OpenCV's CLAHE_CalcLut_Body for one tile's counts; `h` is scratch space,
// kept from tile to tile rather than allocated for each.
void tile_table(std::span<const std::uint64_t> counts, std::int64_t clip_limit, float scale,
                std::uint16_t* table, std::vector<std::int64_t>& h) {
  const auto bins = static_cast<std::int64_t>(counts.size());
  h.assign(counts.begin(), counts.end());
  if (clip_limit > 0) {
    std::int64_t clipped = 0;
    for (auto& c : h) {
      if (c > clip_limit) {
        clipped += c - clip_limit;
        c = clip_limit;
      }
    }
    const std::int64_t batch = clipped / bins;
    std::int64_t residual = clipped - batch * bins;
    for (auto& c : h) c += batch;
    if (residual != 0) {
      const std::int64_t step = std::max<std::int64_t>(bins / residual, 1);
      for (std::int64_t i = 0; i < bins && residual > 0; i += step, --residual)
        ++h[static_cast<std::size_t>(i)];
    }
  }
  const auto max = static_cast<float>(bins - 1);
  std::int64_t sum = 0;
  for (std::int64_t i = 0; i < bins; ++i) {
    sum += h[static_cast<std::size_t>(i)];
    // saturate_cast<T>(float): round half to even, then clamp.
    const float value = std::nearbyint(static_cast<float>(sum) * scale);
    table[i] = static_cast<std::uint16_t>(std::clamp(value, 0.0f, max));
  }
}

ClaheAxis axis(std::uint32_t length, std::uint32_t tile, std::uint32_t tiles) {
  ClaheAxis a;
  a.first.resize(length);
  a.second.resize(length);
  a.first_weight.resize(length);
  a.second_weight.resize(length);
  const float inverse = 1.0f / static_cast<float>(tile);
  for (std::uint32_t i = 0; i < length; ++i) {
    const float position = static_cast<float>(i) * inverse - 0.5f;
    const auto t1 = static_cast<std::int64_t>(std::floor(position));
    const float weight = position - static_cast<float>(t1);
    a.second_weight[i] = weight;
    a.first_weight[i] = 1.0f - weight;
    a.first[i] = static_cast<std::uint32_t>(std::max<std::int64_t>(t1, 0));
    a.second[i] = static_cast<std::uint32_t>(std::min<std::int64_t>(t1 + 1, tiles - 1));
  }
  return a;
}

}  // namespace

ClaheGeometry clahe_geometry(const ImageView& image, const ClaheOptions& options) {
  validate(image);
  validate(options, image.format);
  ClaheGeometry g;
  g.tiles_x = options.tiles_x;
  g.tiles_y = options.tiles_y;
  g.extended = image.width % g.tiles_x != 0 || image.height % g.tiles_y != 0;
  // OpenCV extends both sides when either does not divide.
  const std::uint32_t width =
      g.extended ? image.width + g.tiles_x - image.width % g.tiles_x : image.width;
  const std::uint32_t height =
      g.extended ? image.height + g.tiles_y - image.height % g.tiles_y : image.height;
  g.tile_w = width / g.tiles_x;
  g.tile_h = height / g.tiles_y;
  g.size = tone_options(image.format).bins;
  g.each = is_colour(image.format.layout) && options.channels == ToneChannels::Each;
  g.tables = g.each ? 3U : 1U;
  return g;
}

ClaheGeometry whole_image_geometry(const ImageView& image, std::uint32_t tables) {
  ClaheGeometry g;
  g.tile_w = image.width;
  g.tile_h = image.height;
  g.size = tone_options(image.format).bins;
  g.each = tables == 3;
  g.tables = tables;
  return g;
}

ClaheLimits clahe_limits(const ClaheOptions& options, const ClaheGeometry& g) {
  ClaheLimits limits;
  const std::int64_t total = std::int64_t{g.tile_w} * g.tile_h;
  limits.scale = static_cast<float>(g.size - 1) / static_cast<float>(total);
  if (options.clip_limit > 0.0) {
    // A limit of a tile's pixels or more clips nothing: held there, as a
    // larger one would not fit the integer (1e19 clipped the most).
    const double clip = options.clip_limit * static_cast<double>(total) / g.size;
    limits.clip = clip >= static_cast<double>(total) ? total
                                                     : std::max<std::int64_t>(
                                                           static_cast<std::int64_t>(clip), 1);
  }
  return limits;
}

ClahePlan clahe_blend_plan(const ImageView& image, const ClaheGeometry& g) {
  ClahePlan plan;
  plan.size = g.size;
  plan.lut_channels = g.tables;
  plan.tiles_x = g.tiles_x;
  plan.columns = axis(image.width, g.tile_w, g.tiles_x);
  plan.rows = axis(image.height, g.tile_h, g.tiles_y);
  return plan;
}

ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                          const ClaheGeometry& g, const TileCounts& counts) {
  ClahePlan plan = clahe_blend_plan(image, g);
  plan.tables.resize(std::size_t{g.tiles_x} * g.tiles_y * g.tables * g.size);
  const ClaheLimits limits = clahe_limits(options, g);
  std::vector<std::int64_t> scratch;
  for (std::uint32_t t = 0; t < g.tiles_x * g.tiles_y; ++t) {
    for (std::uint32_t k = 0; k < g.tables; ++k) {
      tile_table(counts(t, k), limits.clip, limits.scale,
                 plan.tables.data() + (std::size_t{t} * g.tables + k) * g.size, scratch);
    }
  }
  return plan;
}

std::vector<std::uint32_t> count_tiles_cpu(const ImageView& image, const ClaheGeometry& g,
                                           LumaWeights luma) {
  const std::uint32_t channels = channel_count(image.format.layout);
  const bool colour = is_colour(image.format.layout);
  const bool deep = image.format.sample == SampleType::U16;
  const std::uint32_t max = g.size - 1;
  const binning::IntWeights weights = binning::int_weights(luma);
  const std::uint32_t width = g.tile_w * g.tiles_x, height = g.tile_h * g.tiles_y;
  std::vector<std::uint32_t> columns(width);
  for (std::uint32_t x = 0; x < width; ++x) {
    columns[x] = static_cast<std::uint32_t>(reflect_101(x, image.width));
  }
  std::vector<std::uint32_t> counts(std::size_t{g.tiles_x} * g.tiles_y * g.tables * g.size, 0);
  const auto sample = [&](const std::byte* row, std::size_t i) -> std::uint32_t {
    if (!deep) return std::to_integer<std::uint32_t>(row[i]);
    std::uint16_t v = 0;
    std::memcpy(&v, row + i * 2, 2);
    return v;
  };
  // Each thread takes whole rows of tiles, so no two write the same counters.
  const std::uint32_t parts = std::min(g.tiles_y, row_parts(height, 64));
  for_row_parts(g.tiles_y, parts, [&](std::uint32_t, std::uint32_t ty0, std::uint32_t ty1) {
    for (std::uint32_t y = ty0 * g.tile_h; y < ty1 * g.tile_h; ++y) {
      const std::byte* row = image.row(static_cast<std::uint32_t>(reflect_101(y, image.height)));
      std::uint32_t* tile_row =
          counts.data() + std::size_t{y / g.tile_h} * g.tiles_x * g.tables * g.size;
      for (std::uint32_t x = 0; x < width; ++x) {
        std::uint32_t* tile = tile_row + std::size_t{x / g.tile_w} * g.tables * g.size;
        const std::size_t i = std::size_t{columns[x]} * channels;
        if (!colour) {
          ++tile[sample(row, i)];
          continue;
        }
        const std::uint32_t r = sample(row, i), gr = sample(row, i + 1), b = sample(row, i + 2);
        if (g.each) {
          ++tile[r];
          ++tile[g.size + gr];
          ++tile[2 * g.size + b];
        } else {
          ++tile[binning::luma_bin(binning::luma_sum(weights, r, gr, b), max, g.size)];
        }
      }
    }
  });
  return counts;
}

ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                          const ClaheGeometry& g, std::span<const std::uint32_t> counts) {
  std::vector<std::uint64_t> scratch(g.size);
  return make_clahe_plan(image, options, g, [&](std::uint32_t t, std::uint32_t k) {
    const std::uint32_t* from = counts.data() + (std::size_t{t} * g.tables + k) * g.size;
    std::copy(from, from + g.size, scratch.begin());
    return std::span<const std::uint64_t>(scratch);
  });
}

ClahePlan make_clahe_plan(const ImageView& image, const ClaheOptions& options,
                          const TileCounter& count) {
  const ClaheGeometry g = clahe_geometry(image, options);
  Extended ext;
  ImageView source = image;
  if (g.extended) {
    ext = extend(image, g.tiles_x, g.tiles_y);
    source = ext.view;
  }
  const std::size_t bpp = pixel_bytes(image.format);
  // Each tile is counted when its tables are made, and its histogram dropped
  // after: kept, 256x256 tiles' histograms would take half a gigabyte.
  Histogram h;
  std::uint32_t counted = g.tiles_x * g.tiles_y;  // the tile `h` counts: none yet
  const auto count_tile = [&](std::uint32_t t) {
    ImageView tile = source;
    tile.data =
        source.row((t / g.tiles_x) * g.tile_h) + std::size_t{t % g.tiles_x} * g.tile_w * bpp;
    tile.width = g.tile_w;
    tile.height = g.tile_h;
    h = count(tile);
    counted = t;
    // A counter's histogram of another shape or pixel count would make other
    // tables silently: one bin per sample value, every channel used, the tile's pixels.
    for (std::uint32_t k = 0; k < g.tables; ++k) {
      const Channel c = g.each ? static_cast<Channel>(k) : Channel::Luminance;
      if (h.bins() != g.size || !h.has(c) ||
          h.total(c) != std::uint64_t{tile.width} * tile.height) {
        throw Error(ErrorKind::InvalidArgument,
                    "clahe: the tile counter's histogram (" + std::to_string(h.bins()) +
                        " bins) does not fit its tile: " + std::to_string(g.size) +
                        " bins of every channel used, counting its " +
                        std::to_string(std::uint64_t{tile.width} * tile.height) + " pixels");
      }
    }
  };
  return make_clahe_plan(image, options, g, [&](std::uint32_t t, std::uint32_t k) {
    if (t != counted) count_tile(t);
    return h.counts(g.each ? static_cast<Channel>(k) : Channel::Luminance);
  });
}

}  // namespace gpuhist::adjust
