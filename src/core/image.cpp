#include "gpuhist/image.hpp"

#include <limits>
#include <new>

#include "gpuhist/error.hpp"

namespace gpuhist {

Image Image::allocate(std::uint32_t width, std::uint32_t height, PixelFormat format,
                      std::size_t stride) {
  const std::uint64_t row = std::uint64_t{width} * pixel_bytes(format);
  if (stride == 0) stride = static_cast<std::size_t>(row);
  if (stride < row || stride % sample_bytes(format.sample) != 0) {
    throw Error(ErrorKind::InvalidArgument, "row stride " + std::to_string(stride) +
                                                " does not fit rows of " + std::to_string(row) +
                                                " bytes");
  }
  if (height != 0 && stride > std::numeric_limits<std::size_t>::max() / height) {
    throw std::bad_alloc();
  }
  Image image;
  image.width = width;
  image.height = height;
  image.format = format;
  image.stride = stride;
  image.storage = PixelBuffer(stride * height);
  return image;
}

}  // namespace gpuhist
