#include "io/images/tiff_colormap.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

constexpr std::uint64_t kPalette = 3;  // PhotometricInterpretation

// The first directory's colormap as libtiff reads it.
struct Colormap {
  TiffLayout layout;
  TiffEntry entry;
  bool eight_bit = false;  // no entry above 255
  std::vector<std::uint64_t> values;
};

std::optional<Colormap> colormap(ByteSource& file) {
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout) return std::nullopt;
  const std::optional<TiffDirectory> first = layout->directory(file, layout->first_directory());
  if (!first || !first->whole()) return std::nullopt;
  const TiffEntry* photometric = first->find(tiff_tag::kPhotometric);
  const TiffEntry* map = first->find(tiff_tag::kColorMap);
  if (photometric == nullptr || map == nullptr) return std::nullopt;
  const std::vector<std::uint64_t> kind = layout->integers(file, *photometric, 1);
  if (kind.empty() || kind[0] != kPalette) return std::nullopt;
  std::uint64_t bits = 1;  // the TIFF default
  if (const TiffEntry* b = first->find(tiff_tag::kBitsPerSample)) {
    const std::vector<std::uint64_t> declared = layout->integers(file, *b, 16);
    if (declared.empty()) return std::nullopt;
    bits = declared[0];
  }
  if (bits == 0 || bits > 16) return std::nullopt;
  // libtiff takes a map of exactly 3 x 2^bits values (red, green, blue) of
  // an unsigned type, each at most 65535; it ignores any other.
  const std::uint64_t entries = std::uint64_t{3} << bits;
  if (map->count != entries) return std::nullopt;
  Colormap c{*layout, *map, false, layout->integers(file, *map, entries)};
  if (c.values.size() != entries ||
      std::any_of(c.values.begin(), c.values.end(), [](auto v) { return v > 0xFFFF; })) {
    return std::nullopt;
  }
  c.eight_bit = std::all_of(c.values.begin(), c.values.end(), [](auto v) { return v < 256; });
  return c;
}

// libtiff's 8-bit value of a colormap entry.
std::uint64_t eight_bits(std::uint64_t entry, bool eight_bit_map) {
  return eight_bit_map ? entry : entry >> 8;
}

}  // namespace

bool tiff_colormap_misread(ByteSource& file) {
  const std::optional<Colormap> c = colormap(file);
  return c && std::any_of(c->values.begin(), c->values.end(),
                          [&](std::uint64_t v) { return v / 257 != eight_bits(v, c->eight_bit); });
}

void rewrite_tiff_colormap(std::vector<unsigned char>& bytes) {
  ByteSource source{std::span<const unsigned char>(bytes)};
  const std::optional<Colormap> c = colormap(source);
  if (!c) return;
  // The new map, SHORTs, appended on a word boundary; the entry, and no
  // other byte of the file, made to point at it.
  const TiffLayout& layout = c->layout;
  const std::uint64_t at = bytes.size() + bytes.size() % 2;
  const std::uint64_t end = at + 2 * c->values.size();
  if (!layout.big_tiff() && end > 0xFFFFFFFFU) return;
  bytes.resize(static_cast<std::size_t>(end), 0);
  for (std::size_t i = 0; i < c->values.size(); ++i) {
    layout.put(&bytes[at + 2 * i], 2, eight_bits(c->values[i], c->eight_bit) * 257);
  }
  unsigned char* entry = &bytes[c->entry.at];
  layout.put(entry + 2, 2, tiff_type::kShort);
  layout.put(entry + 4 + layout.word(), layout.word(), at);
}

}  // namespace gpuhist::images
