#include "io/images/tiff_strips.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {

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
  // The values of a tag (the first of its entries, as libtiff keeps it).
  const auto values = [&](std::uint16_t tag) {
    const TiffEntry* e = first->find(tag);
    return e != nullptr ? layout->integers(file, *e) : std::vector<std::uint64_t>{};
  };
  // Uncompressed strips read short are an error of the reader's own, and
  // libtiff recomputes a single uncompressed strip's count from the image.
  const std::vector<std::uint64_t> compression = values(tiff_tag::kCompression);
  if (compression.empty() || compression[0] == 1) return {};
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
