#include "io/images/webp_colour.hpp"

#include <webp/decode.h>

#include <cstring>
#include <memory>

namespace gpuhist::images {

bool webp_colour_as_stored(std::span<const unsigned char> bytes, Image& image) {
  WebPBitstreamFeatures features{};
  if (WebPGetFeatures(bytes.data(), bytes.size(), &features) != VP8_STATUS_OK ||
      features.has_animation != 0 || features.width <= 0 || features.height <= 0 ||
      static_cast<std::uint32_t>(features.width) != image.width ||
      static_cast<std::uint32_t>(features.height) != image.height ||
      image.format.sample != SampleType::U8 || image.format.layout == ChannelLayout::Grey) {
    return false;
  }
  int width = 0, height = 0;
  const std::unique_ptr<std::uint8_t, decltype(&WebPFree)> rgba(
      WebPDecodeRGBA(bytes.data(), bytes.size(), &width, &height), &WebPFree);
  if (rgba == nullptr || static_cast<std::uint32_t>(width) != image.width ||
      static_cast<std::uint32_t>(height) != image.height) {
    return false;
  }
  const std::size_t channels = channel_count(image.format.layout);  // 3 or 4
  std::byte* rows = image.bytes().data();
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::uint8_t* from = rgba.get() + std::size_t{y} * image.width * 4;
    std::byte* to = rows + std::size_t{y} * image.stride;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      std::memcpy(to + x * channels, from + std::size_t{x} * 4, channels);
    }
  }
  return true;
}

}  // namespace gpuhist::images
