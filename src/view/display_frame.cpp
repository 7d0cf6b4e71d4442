#include "view/display_frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpuhist {

Image display_frame(const ImageView& image) {
  const std::uint32_t channels = channel_count(image.format.layout);
  const SampleType out_sample =
      image.format.sample == SampleType::U16 ? SampleType::U16 : SampleType::U8;
  Image out = Image::allocate(image.width, image.height, {ChannelLayout::RGB, out_sample});
  const std::size_t row_bytes = out.stride;
  std::byte* dst = out.storage.data();
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::byte* row = image.row(y);
    std::byte* out_row = dst + y * row_bytes;
    if (image.format == out.format) {
      std::memcpy(out_row, row, row_bytes);
      continue;
    }
    for (std::uint32_t x = 0; x < image.width; ++x) {
      for (std::uint32_t c = 0; c < 3; ++c) {
        const std::uint32_t source = channels == 1 ? 0 : c;
        const std::size_t index = std::size_t{x} * channels + source;
        const std::size_t target = std::size_t{x} * 3 + c;
        switch (image.format.sample) {
          case SampleType::U8:
            out_row[target] = row[index];
            break;
          case SampleType::U16:
            std::memcpy(out_row + target * 2, row + index * 2, 2);
            break;
          case SampleType::F32: {
            float v = 0;
            std::memcpy(&v, row + index * 4, 4);
            const float clamped = std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 1.0f);
            out_row[target] = static_cast<std::byte>(std::lround(clamped * 255.0f));
            break;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace gpuhist
