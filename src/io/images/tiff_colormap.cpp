#include "io/images/tiff_colormap.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

constexpr std::uint64_t kPalette = 3;  // PhotometricInterpretation

// Where the first directory's colormap lies and how libtiff reads it.
struct Colormap {
  TiffLayout layout;
  std::uint64_t at = 0;       // the first entry's byte
  std::uint64_t entries = 0;  // 3 x 2^bits: red, green, blue
  bool eight_bit = false;     // no entry above 255
  std::vector<std::uint64_t> values;
};

std::optional<Colormap> colormap(ByteSource& file) {
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout) return std::nullopt;
  const std::optional<TiffDirectory> first = layout->directory(file, layout->first_directory());
  if (!first || !first->whole()) return std::nullopt;
  const TiffEntry* photometric = first->find(tiff_tag::kPhotometric);
  const TiffEntry* map = first->find(tiff_tag::kColorMap);
  if (photometric == nullptr || map == nullptr || map->type != tiff_type::kShort) {
    return std::nullopt;
  }
  const std::vector<std::uint64_t> kind = layout->integers(file, *photometric, 1);
  if (kind.empty() || kind[0] != kPalette) return std::nullopt;
  std::uint64_t bits = 1;  // the TIFF default
  if (const TiffEntry* b = first->find(tiff_tag::kBitsPerSample)) {
    const std::vector<std::uint64_t> declared = layout->integers(file, *b, 16);
    if (declared.empty()) return std::nullopt;
    bits = declared[0];
  }
  if (bits == 0 || bits > 16) return std::nullopt;
  // libtiff takes the first 3 x 2^bits values of a longer map, and no map
  // from a shorter one.
  Colormap c{*layout, map->values_at, std::uint64_t{3} << bits, false, {}};
  if (map->count < c.entries) return std::nullopt;
  TiffEntry used = *map;
  used.count = c.entries;
  used.value_bytes = 2 * c.entries;
  c.values = layout->integers(file, used, c.entries);
  if (c.values.size() != c.entries) return std::nullopt;
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
  for (std::uint64_t i = 0; i < c->entries; ++i) {
    c->layout.put(&bytes[c->at + 2 * i], 2, eight_bits(c->values[i], c->eight_bit) * 257);
  }
}

}  // namespace gpuhist::images
