// Adjusting images with their histograms: lookup tables made from a histogram
// with one bin per sample value (equalisation, auto-levels, thresholds,
// matching to a reference) and applied to the pixels, on the CPU or the GPU
// (Context::apply_lut) with the same bytes. Integer samples only (8 and 16 bits).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist {

// ---- Tables of one channel --------------------------------------------------
// Each takes the counts of one channel with one bin per sample value (M + 1
// bins: 256 for 8-bit samples, 65536 for 16-bit) and gives a table of M + 1
// values in 0..M. Throws Error(InvalidArgument) for an empty histogram.

// Global equalisation, as OpenCV's equalizeHist: with f the lowest value
// present and c(v) the cumulative count, v < f maps to 0 and v >= f to
// round(M * (c(v) - c(f)) / (total - c(f))) (halves up); an image of one value
// keeps it.
[[nodiscard]] std::vector<std::uint16_t> equalize_table(std::span<const std::uint64_t> counts);

// Contrast stretch (auto-levels): lo = percentile(low), hi = percentile(100 - high)
// (nearest rank); v <= lo maps to 0, v >= hi to M, and between them
// round(M * (v - lo) / (hi - lo)) (halves up). When hi <= lo the table is the
// identity (nothing to stretch). low and high are percentages, 0..50.
[[nodiscard]] std::vector<std::uint16_t> stretch_table(std::span<const std::uint64_t> counts,
                                                       double low, double high);

// Histogram matching (specification): v maps to the lowest w whose cumulative
// share of the reference reaches v's cumulative share of the image, compared
// exactly in integers. Both must have the same number of bins.
[[nodiscard]] std::vector<std::uint16_t> match_table(std::span<const std::uint64_t> counts,
                                                     std::span<const std::uint64_t> reference);

// Otsu's threshold (the value that maximises the between-class variance) and
// the triangle threshold, computed as OpenCV's THRESH_OTSU and THRESH_TRIANGLE
// compute them. -1 means every value is above the threshold.
[[nodiscard]] std::int32_t otsu_threshold(std::span<const std::uint64_t> counts);
[[nodiscard]] std::int32_t triangle_threshold(std::span<const std::uint64_t> counts);

// Binarisation: v > threshold maps to M, the rest to 0 (OpenCV's THRESH_BINARY):
// a threshold below 0 maps every value to M, one of size or more (the triangle
// method's answer for a histogram with no bin below its line) every value to 0.
[[nodiscard]] std::vector<std::uint16_t> threshold_table(std::uint32_t size,
                                                         std::int32_t threshold);

// ---- Tables of an image ------------------------------------------------------

// Which samples a table is made from and applied to.
enum class ToneChannels : std::uint8_t {
  Each,       // red, green and blue each by its own histogram (grey: luminance)
  Luminance,  // the luminance histogram's table applied to red, green and blue alike
};

// Throws Error(InvalidArgument) for a value that is neither (one made from a number).
void validate(ToneChannels use);

// What to do with the tables.
enum class LutTarget : std::uint8_t {
  Samples,    // each sample through its channel's table; alpha copied; same format out
  Luminance,  // each pixel's luminance value through the luminance table; grey out
};

// One table per channel, indexed by Channel: R, G and B are applied to colour
// pixels, L to grey pixels (and, with LutTarget::Luminance, to every pixel's
// luminance). Tables not used may be empty.
struct Lut {
  SampleType sample = SampleType::U8;  // U8: tables of 256 values, U16: 65536
  LutTarget target = LutTarget::Samples;
  LumaWeights luma = LumaWeights::Rec709;  // for LutTarget::Luminance
  std::array<std::vector<std::uint16_t>, 4> tables{};
};

// The histogram options an adjustment of `format` counts with: one bin per
// sample value. Throws Error(InvalidArgument) for float samples.
[[nodiscard]] HistogramOptions tone_options(PixelFormat format,
                                            LumaWeights luma = LumaWeights::Rec709);

// Tables for an image of `format` from its histogram (counted with tone_options).
[[nodiscard]] Lut equalize_lut(const Histogram& histogram, PixelFormat format, ToneChannels use);
[[nodiscard]] Lut stretch_lut(const Histogram& histogram, PixelFormat format, ToneChannels use,
                              double low, double high);
[[nodiscard]] Lut match_lut(const Histogram& histogram, const Histogram& reference,
                            PixelFormat format, ToneChannels use);
// Binarises luminance: a grey image, M where a pixel's luminance value is above
// `threshold`, else 0.
[[nodiscard]] Lut threshold_lut(PixelFormat format, std::int32_t threshold,
                                LumaWeights luma = LumaWeights::Rec709);

// ---- Applying ----------------------------------------------------------------

// The format of the pixels `lut` makes from `format`.
[[nodiscard]] PixelFormat lut_output_format(PixelFormat format, const Lut& lut);

// Applies `lut` on the CPU, writing tightly packed rows of lut_output_format
// to `out` (width * height * its pixel bytes). Throws Error(InvalidArgument)
// for a bad view, float samples, or tables that do not fit the image.
void apply_lut_cpu(const ImageView& image, const Lut& lut, std::span<std::byte> out);

// Throws Error(InvalidArgument) when `lut` cannot be applied to `image` or
// `out` is too small; the check both appliers make.
void validate_lut(const ImageView& image, const Lut& lut, std::size_t out_bytes);

}  // namespace gpuhist
