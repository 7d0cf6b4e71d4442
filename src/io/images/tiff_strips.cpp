#include "io/images/tiff_strips.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

// a x b, or the largest value where that does not fit.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  return a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a
             ? std::numeric_limits<std::uint64_t>::max()
             : a * b;
}

// An uncompressed image's strips or tiles that end past the end of the
// file: the bytes each holds are known from the image (libtiff reads them
// so, whatever the byte counts say, and refuses a strip it cannot read
// whole; the library's reader of samples under 8 bits counted the missing
// ones as 0). Y'CbCr, whose subsampled strips are sized otherwise, is left
// to the reader.
std::string uncompressed_fault(ByteSource& file, const TiffLayout& layout,
                               const TiffDirectory& first) {
  const auto values = [&](std::uint16_t tag) { return layout.integers(file, first, tag); };
  const auto first_value = [&](std::uint16_t tag, std::uint64_t otherwise) {
    const std::vector<std::uint64_t> v = values(tag);
    return v.empty() ? otherwise : v[0];
  };
  constexpr std::uint64_t kMost = std::uint64_t{1} << 32;
  const std::uint64_t width = first_value(tiff_tag::kImageWidth, 0);
  const std::uint64_t height = first_value(tiff_tag::kImageLength, 0);
  const std::uint64_t bits = first_value(tiff_tag::kBitsPerSample, 1);
  const std::uint64_t samples = first_value(tiff_tag::kSamplesPerPixel, 1);
  const bool planes = first_value(tiff_tag::kPlanarConfig, 1) == 2;
  if (first_value(tiff_tag::kPhotometric, 1) == 6 || width == 0 || height == 0 || bits == 0 ||
      samples == 0 || width >= kMost || height >= kMost || bits > 64 || samples > 1024) {
    return {};
  }
  const std::uint64_t per_pixel = bits * (planes ? 1 : samples);
  const std::uint64_t file_bytes = file.size();
  const auto past_end = [&](const char* what, std::size_t i, std::uint64_t at,
                            std::uint64_t bytes) -> std::string {
    if (at <= file_bytes && bytes <= file_bytes - at) return {};
    return std::string("truncated image: its uncompressed TIFF ") + what + " " + std::to_string(i) +
           " of " + std::to_string(bytes) + " bytes at byte " + std::to_string(at) +
           " runs past the end of its " + std::to_string(file_bytes) + " bytes";
  };
  if (const std::uint64_t tile_width = first_value(tiff_tag::kTileWidth, 0); tile_width != 0) {
    const std::uint64_t tile_length = first_value(tiff_tag::kTileLength, 0);
    if (tile_width >= kMost || tile_length == 0 || tile_length >= kMost) return {};
    const std::uint64_t tile_bytes = times(tile_length, (tile_width * per_pixel + 7) / 8);
    const std::vector<std::uint64_t> offsets = values(tiff_tag::kTileOffsets);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (std::string fault = past_end("tile", i, offsets[i], tile_bytes); !fault.empty()) {
        return fault;
      }
    }
    return {};
  }
  const std::uint64_t rows =
      std::min(height, std::max<std::uint64_t>(1, first_value(tiff_tag::kRowsPerStrip, height)));
  const std::uint64_t row_bytes = (width * per_pixel + 7) / 8;
  const std::uint64_t strips = (height + rows - 1) / rows;
  const std::vector<std::uint64_t> offsets = values(tiff_tag::kStripOffsets);
  // (Entries past the strips the rows need, which libtiff reads no further.)
  const std::uint64_t needed = times(strips, planes ? samples : 1);
  for (std::size_t i = 0; i < offsets.size() && i < needed; ++i) {
    // Strips run plane after plane; the last of each plane holds the rows left.
    const std::uint64_t strip = i % strips;
    const std::uint64_t in_strip = strip + 1 < strips ? rows : height - strip * rows;
    if (std::string fault = past_end("strip", i, offsets[i], times(in_strip, row_bytes));
        !fault.empty()) {
      return fault;
    }
  }
  return {};
}

}  // namespace

std::string tiff_strips_fault(ByteSource& file) {
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout) return {};  // the reader refuses it
  const std::uint64_t file_bytes = file.size();
  // A file cut short before its first directory (which TIFF writers put
  // last): said as that, where the library says it cannot read a directory.
  const std::string cut_short = "corrupt or truncated image: its first TIFF directory, at byte " +
                                std::to_string(layout->first_directory()) +
                                ", runs past the end of the file (" + std::to_string(file_bytes) +
                                " bytes)";
  const std::optional<TiffDirectory> first =
      layout->directory(file, layout->first_directory(), 4096);
  if (!first) return cut_short;
  if (first->declared > 4096) return {};
  if (!first->whole()) return cut_short;
  if (first->entries.empty()) return {};
  const auto values = [&](std::uint16_t tag) { return layout->integers(file, *first, tag); };
  const auto first_value = [&](std::uint16_t tag, std::uint64_t otherwise) {
    const std::vector<std::uint64_t> v = values(tag);
    return v.empty() ? otherwise : v[0];
  };
  // A palette image's colour map cut off: libtiff drops it with a warning,
  // and the library then reads the indices as grey levels.
  if (const TiffEntry* map = first->find(tiff_tag::kColorMap);
      map != nullptr && first_value(tiff_tag::kPhotometric, 1) == 3 && map->value_bytes != 0 &&
      (map->values_at > file_bytes || map->value_bytes > file_bytes - map->values_at)) {
    return "truncated image: its TIFF colour map of " + std::to_string(map->value_bytes) +
           " bytes at byte " + std::to_string(map->values_at) + " runs past the end of its " +
           std::to_string(file_bytes) + " bytes";
  }
  const std::vector<std::uint64_t> compression = values(tiff_tag::kCompression);
  if (compression.empty() || compression[0] == 1) return uncompressed_fault(file, *layout, *first);
  const std::vector<std::uint64_t> strip_offsets = values(tiff_tag::kStripOffsets),
                                   strip_counts = values(tiff_tag::kStripByteCounts);
  const std::vector<std::uint64_t> tile_offsets = values(tiff_tag::kTileOffsets),
                                   tile_counts = values(tiff_tag::kTileByteCounts);
  using Arrays =
      std::tuple<const std::vector<std::uint64_t>&, const std::vector<std::uint64_t>&, const char*>;
  for (const auto& [offsets, counts, what] :
       {Arrays{strip_offsets, strip_counts, "strip"}, Arrays{tile_offsets, tile_counts, "tile"}}) {
    for (std::size_t i = 0; i < std::min(offsets.size(), counts.size()); ++i) {
      if (offsets[i] > file_bytes || counts[i] > file_bytes - offsets[i]) {
        return std::string("truncated image: its TIFF ") + what + " " + std::to_string(i) + " of " +
               std::to_string(counts[i]) + " bytes at byte " + std::to_string(offsets[i]) +
               " runs past the end of its " + std::to_string(file_bytes) + " bytes";
      }
    }
  }
  // Every strip the rows need has an offset and a byte count: libtiff fills
  // missing entries with zeros, and OpenImageIO inflates such a strip from
  // memory never written (valgrind, fuzz_image 2026-12-03).
  const std::vector<std::uint64_t> height = values(tiff_tag::kImageLength),
                                   rows_per_strip = values(tiff_tag::kRowsPerStrip),
                                   samples = values(tiff_tag::kSamplesPerPixel),
                                   planar = values(tiff_tag::kPlanarConfig);
  if (height.empty() || !values(tiff_tag::kTileWidth).empty()) return {};  // tiled
  const std::uint64_t rows =
      rows_per_strip.empty() || rows_per_strip[0] == 0 ? height[0] : rows_per_strip[0];
  const std::uint64_t per_strip = std::max<std::uint64_t>(1, std::min(rows, height[0]));
  std::uint64_t strips = (height[0] + per_strip - 1) / per_strip;
  if (!planar.empty() && planar[0] == 2 && !samples.empty()) strips *= samples[0];
  const bool zero = std::find(strip_counts.begin(), strip_counts.end(), 0U) != strip_counts.end();
  if (strip_offsets.size() < strips || strip_counts.size() < strips || zero) {
    return "corrupt TIFF: " + std::to_string(strip_offsets.size()) + " strip offsets and " +
           std::to_string(strip_counts.size()) + " byte counts" + (zero ? " (one of them 0)" : "") +
           " for the " + std::to_string(strips) + " strips its " + std::to_string(height[0]) +
           " rows need";
  }
  return {};
}

}  // namespace gpuhist::images
