// Contrast-limited adaptive histogram equalisation (CLAHE), as OpenCV's
// createCLAHE(clip_limit, {tiles_x, tiles_y})->apply computes it on a grey
// image: one histogram per tile (of the image extended by reflection to a whole
// number of tiles), clipped at clip_limit times the mean bin count and the
// clipped pixels spread over every bin, turned into a table per tile, and each
// pixel blended bilinearly from the tables of the four nearest tiles. Colour
// images use each channel's own tiles, or luminance's tiles on all three.
// Integer samples only (8 and 16 bits); the GPU (Context::clahe) and the CPU
// give the same bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "gpuhist/adjust.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist {

struct ClaheOptions {
  std::uint32_t tiles_x = 8;  // 1..256 each
  std::uint32_t tiles_y = 8;
  double clip_limit = 2.0;  // times the mean count of a tile's bins; 0: no clipping
  ToneChannels channels = ToneChannels::Luminance;
  LumaWeights luma = LumaWeights::Rec709;
};

// Throws Error(InvalidArgument) for tiles outside 1..256, a negative or
// non-finite clip limit, float samples, or more than 2^27 table values in all
// (tiles x tables per tile x 256 or 65536: 16-bit samples allow about 2048 tables).
void validate(const ClaheOptions& options, PixelFormat format);

// Counts one tile (a view into the image, or its reflected extension) with one
// bin per sample value; Context::clahe counts with the strategy it is given.
using TileCounter = std::function<Histogram(const ImageView& tile)>;

// CLAHE on the CPU: tiles counted by `count` (the cpu strategy when empty),
// pixels written tightly packed in the image's format to `out`. Throws
// Error(InvalidArgument) for bad options, a bad view or a short `out`.
void clahe_cpu(const ImageView& image, const ClaheOptions& options, std::span<std::byte> out,
               const TileCounter& count = {});

}  // namespace gpuhist
