// A non-owning view of pixels in host memory: the input of every histogram.
#pragma once

#if __cplusplus < 202002L
#error "gpuhist's headers are C++20: compile with -std=c++20 (CMake's gpuhist targets ask for it)"
#endif

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuhist {

// How many interleaved samples one pixel holds. Alpha, when present, is never counted.
enum class ChannelLayout : std::uint8_t { Grey = 1, RGB = 3, RGBA = 4 };

// The type of one sample. Integer samples span 0..255 or 0..65535; float samples
// are clamped to [0, 1] before binning.
enum class SampleType : std::uint8_t { U8, U16, F32 };

// Layout and sample type together.
struct PixelFormat {
  ChannelLayout layout = ChannelLayout::RGBA;
  SampleType sample = SampleType::U8;

  friend bool operator==(const PixelFormat&, const PixelFormat&) = default;
};

// Samples per pixel (1, 3 or 4).
[[nodiscard]] constexpr std::uint32_t channel_count(ChannelLayout layout) noexcept {
  return static_cast<std::uint32_t>(layout);
}
// Bytes per sample (1, 2 or 4).
[[nodiscard]] constexpr std::uint32_t sample_bytes(SampleType sample) noexcept {
  return sample == SampleType::U8 ? 1U : sample == SampleType::U16 ? 2U : 4U;
}
// Bytes per pixel.
[[nodiscard]] constexpr std::uint32_t pixel_bytes(PixelFormat format) noexcept {
  return channel_count(format.layout) * sample_bytes(format.sample);
}
// True for layouts with red, green and blue samples.
[[nodiscard]] constexpr bool is_colour(ChannelLayout layout) noexcept {
  return layout != ChannelLayout::Grey;
}
// A short name such as "rgba8", "rgb16" or "grey32f".
[[nodiscard]] std::string to_string(PixelFormat format);
// The name of a file's pixels read without their alpha (`alpha`: the file has
// one): "rgba8" for RGB read from RGBA, "greya16" for grey from grey and alpha.
[[nodiscard]] std::string to_string(PixelFormat format, bool alpha);

// Pixels as they lie in memory. Rows are `stride` bytes apart (at least
// width * pixel_bytes(format)); samples are in native byte order and, for
// 16-bit and float samples, aligned to their size. The view does not own the
// memory, which must outlive every call that uses the view.
struct ImageView {
  const void* data = nullptr;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::size_t stride = 0;
  PixelFormat format{};

  // A view of tightly packed rows.
  static ImageView packed(const void* data, std::uint32_t width, std::uint32_t height,
                          PixelFormat format) {
    return {data, width, height, std::size_t{width} * pixel_bytes(format), format};
  }
  [[nodiscard]] std::uint64_t pixel_count() const noexcept { return std::uint64_t{width} * height; }
  [[nodiscard]] const std::byte* row(std::uint32_t y) const noexcept {
    return static_cast<const std::byte*>(data) + stride * y;
  }
};

// Throws Error(InvalidArgument) when the view cannot be read as described:
// an unknown format, null data, zero size, a stride shorter than a row, rows
// that span more than the address space, misaligned samples.
void validate(const ImageView& image);

// Throws Error(InvalidArgument) for a layout or sample type that is none of
// the enumerators (a value made from a number: a channel count of 2).
void validate(PixelFormat format);

}  // namespace gpuhist
