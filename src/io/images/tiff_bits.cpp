#include "io/images/tiff_bits.hpp"

#include <cstdint>
#include <cstring>
#include <optional>

#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {

bool tiff_lacks_bits_per_sample(const std::filesystem::path& path) {
  ByteSource file(path);
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout || layout->big_tiff()) return false;
  const std::optional<TiffDirectory> first = layout->directory(file, layout->first_directory());
  if (!first || !first->whole() || first->entries.empty()) return false;
  if (first->find(tiff_tag::kBitsPerSample) != nullptr) return false;
  // One sample a pixel, as a SHORT (or LONG) in the entry itself.
  if (const TiffEntry* samples = first->find(tiff_tag::kSamplesPerPixel)) {
    const std::vector<std::uint64_t> n = layout->integers(file, *samples, 1);
    const bool short_or_long =
        samples->type == tiff_type::kShort || samples->type == tiff_type::kLong;
    if (!short_or_long || n.empty() || n[0] != 1) return false;
  }
  return true;
}

void add_one_bit_per_sample(std::vector<unsigned char>& bytes) {
  ByteSource source{std::span<const unsigned char>(bytes)};
  const std::optional<TiffLayout> layout = TiffLayout::read(source);
  if (!layout || layout->big_tiff()) return;
  const std::optional<TiffDirectory> first = layout->directory(source, layout->first_directory());
  if (!first || !first->whole() || first->declared >= 0xFFFF || first->entries.empty()) return;
  // The next directory's pointer must be there too, to be copied.
  const std::uint64_t next_at = first->entries.back().at + 12;
  if (next_at + 4 > bytes.size()) return;
  const auto put = [&](std::vector<unsigned char>& to, std::uint64_t v, std::size_t n) {
    to.resize(to.size() + n);
    layout->put(&to[to.size() - n], n, v);
  };
  // The new field: BitsPerSample, SHORT, one value, 1 (in the entry's first two bytes).
  std::vector<unsigned char> field;
  put(field, tiff_tag::kBitsPerSample, 2);
  put(field, tiff_type::kShort, 2);
  put(field, 1, 4);
  put(field, 1, 2);
  put(field, 0, 2);
  // The directory copied in tag order with the field among its entries, the
  // pointer to the next directory kept; on a word boundary, as TIFF wants.
  std::vector<unsigned char> directory;
  put(directory, first->declared + 1, 2);
  bool placed = false;
  for (const TiffEntry& e : first->entries) {
    if (!placed && e.tag > tiff_tag::kBitsPerSample) {
      directory.insert(directory.end(), field.begin(), field.end());
      placed = true;
    }
    directory.insert(directory.end(), &bytes[e.at], &bytes[e.at] + 12);
  }
  if (!placed) directory.insert(directory.end(), field.begin(), field.end());
  directory.insert(directory.end(), &bytes[next_at], &bytes[next_at] + 4);
  if (bytes.size() % 2 != 0) bytes.push_back(0);
  if (bytes.size() > 0xFFFFFFFFU - directory.size()) return;
  const std::uint64_t placed_at = bytes.size();
  bytes.insert(bytes.end(), directory.begin(), directory.end());
  layout->put(&bytes[4], 4, placed_at);
}

}  // namespace gpuhist::images
