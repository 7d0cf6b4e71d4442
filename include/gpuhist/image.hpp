// Pixels that own their memory: what the file and video readers return and
// what the adjustments write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuhist/image_view.hpp"
#include "gpuhist/pixel_buffer.hpp"

namespace gpuhist {

struct Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  PixelFormat format{};
  std::size_t stride = 0;   // bytes from the start of one row to the next
  PixelBuffer storage;      // `height` rows of `stride` bytes, aligned and padded
  std::string codec;        // the reader's format name, e.g. "png"
  bool alpha = false;       // the file has an alpha channel that these pixels leave out
  bool more_pages = false;  // the file holds more pages (subimages) than the one read
  std::string warning;      // the decoder's warning of possible damage, pixels decoded all the same
  std::uint8_t orientation = 1;  // the file's Exif orientation (1-8) of these pixels, as stored
  // What these pixels leave out of the file or change in its samples (channels
  // neither counted nor alpha, integer samples read as scaled floats): a line
  // each, for the caller to say as a warning.
  std::vector<std::string> notes{};

  // An uninitialised image whose rows are `stride` bytes apart (tightly packed
  // when 0). Throws Error(InvalidArgument) for a stride shorter than a row or
  // not a multiple of the sample size, std::bad_alloc when the memory cannot be
  // had.
  [[nodiscard]] static Image allocate(std::uint32_t width, std::uint32_t height, PixelFormat format,
                                      std::size_t stride = 0);

  [[nodiscard]] ImageView view() const noexcept {
    return {storage.data(), width, height, stride, format};
  }
  // The rows' bytes, padding between rows included.
  [[nodiscard]] std::span<std::byte> bytes() noexcept { return storage.bytes(); }
};

}  // namespace gpuhist
