#include "io/images/tiff_cmyk.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "io/images/cmyk_rgb.hpp"
#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

constexpr std::uint16_t kInkSet = 332;
constexpr std::uint64_t kSeparated = 5;  // PhotometricInterpretation
constexpr std::uint64_t kCmykInks = 1;   // InkSet
constexpr std::uint64_t kJpeg = 7;       // Compression
constexpr std::uint64_t kOldJpeg = 6;
constexpr std::uint16_t kSampleFormat = 339;

template <typename T>
void convert(const ImageView& inks, Image& rgb) {
  for (std::uint32_t y = 0; y < inks.height; ++y) {
    const std::byte* from = inks.row(y);
    std::byte* to = rgb.storage.data() + std::size_t{y} * rgb.stride;
    for (std::uint32_t x = 0; x < inks.width; ++x) {
      T in[4];
      std::memcpy(in, from + std::size_t{x} * sizeof in, sizeof in);
      const float k = 1.0F - unit_level(in[3]);
      const T out[3] = {nearest_level<T>((1.0F - unit_level(in[0])) * k),
                        nearest_level<T>((1.0F - unit_level(in[1])) * k),
                        nearest_level<T>((1.0F - unit_level(in[2])) * k)};
      std::memcpy(to + std::size_t{x} * sizeof out, out, sizeof out);
    }
  }
}

}  // namespace

TiffCmyk tiff_cmyk(ByteSource& file) {
  const std::optional<TiffLayout> layout = TiffLayout::read(file);
  if (!layout) return TiffCmyk::No;
  const std::optional<TiffDirectory> first = layout->directory(file, layout->first_directory());
  if (!first || !first->whole()) return TiffCmyk::No;
  // A field's first value, or `otherwise` where the directory has none.
  const auto value = [&](std::uint16_t tag,
                         std::uint64_t otherwise) -> std::optional<std::uint64_t> {
    const TiffEntry* e = first->find(tag);
    if (e == nullptr) return otherwise;
    const std::vector<std::uint64_t> v = layout->integers(file, *e, 16);
    if (v.empty()) return std::nullopt;
    return v[0];
  };
  if (value(tiff_tag::kPhotometric, 0) != kSeparated || value(tiff_tag::kSamplesPerPixel, 1) != 4 ||
      value(kInkSet, kCmykInks) != kCmykInks) {
    return TiffCmyk::No;
  }
  // JPEG-coded ones (old style too) the library reads through libtiff's
  // RGBA interface, but tiled ones, whose tiles it writes past its buffer.
  const std::optional<std::uint64_t> compression = value(tiff_tag::kCompression, 1);
  if (compression == kJpeg || compression == kOldJpeg) {
    return first->find(tiff_tag::kTileWidth) != nullptr ? TiffCmyk::Unreadable : TiffCmyk::No;
  }
  // 8- and 16-bit unsigned samples; the library refuses the others itself.
  const std::optional<std::uint64_t> bits = value(tiff_tag::kBitsPerSample, 1);
  return (bits == 8 || bits == 16) && value(kSampleFormat, 1) == 1 ? TiffCmyk::Inks : TiffCmyk::No;
}

void cmyk_to_rgb(const ImageView& inks, Image& rgb) {
  if (inks.format.sample == SampleType::U8) {
    convert<std::uint8_t>(inks, rgb);
  } else {
    convert<std::uint16_t>(inks, rgb);
  }
}

}  // namespace gpuhist::images
