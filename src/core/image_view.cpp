#include "gpuhist/image_view.hpp"

#include <cstdint>
#include <string>

#include "gpuhist/error.hpp"

namespace gpuhist {

std::string to_string(PixelFormat format) {
  std::string name = format.layout == ChannelLayout::Grey  ? "grey"
                     : format.layout == ChannelLayout::RGB ? "rgb"
                                                           : "rgba";
  switch (format.sample) {
    case SampleType::U8:
      return name + "8";
    case SampleType::U16:
      return name + "16";
    case SampleType::F32:
      return name + "32f";
  }
  return name;
}

std::string to_string(PixelFormat format, bool alpha) {
  const std::string name = to_string(format);
  const std::size_t depth = name.find_first_of("0123456789");
  if (!alpha || depth == std::string::npos) return name;
  // "rgb8" with an alpha channel beside it: "rgba8" (appended: GCC 12 warns of insert).
  std::string named = name.substr(0, depth);
  named += 'a';
  named.append(name, depth);
  return named;
}

void validate(PixelFormat format) {
  const auto layout = static_cast<std::uint32_t>(format.layout);
  if (layout != 1 && layout != 3 && layout != 4) {
    throw Error(ErrorKind::InvalidArgument,
                "unknown pixel layout " + std::to_string(layout) + " (1 grey, 3 RGB, 4 RGBA)");
  }
  if (static_cast<std::uint32_t>(format.sample) > static_cast<std::uint32_t>(SampleType::F32)) {
    throw Error(ErrorKind::InvalidArgument,
                "unknown sample type " + std::to_string(static_cast<std::uint32_t>(format.sample)));
  }
}

void validate(const ImageView& image) {
  validate(image.format);
  if (image.width == 0 || image.height == 0) {
    throw Error(ErrorKind::InvalidArgument, "image has zero size (" + std::to_string(image.width) +
                                                "x" + std::to_string(image.height) + ")");
  }
  if (image.data == nullptr) throw Error(ErrorKind::InvalidArgument, "image data is null");
  const std::size_t row_bytes = std::size_t{image.width} * pixel_bytes(image.format);
  if (image.stride < row_bytes) {
    throw Error(ErrorKind::InvalidArgument, "row stride " + std::to_string(image.stride) +
                                                " is shorter than a row (" +
                                                std::to_string(row_bytes) + " bytes)");
  }
  if (image.height > 1 && image.stride > (SIZE_MAX - row_bytes) / (image.height - 1)) {
    throw Error(ErrorKind::InvalidArgument, std::to_string(image.height) + " rows of stride " +
                                                std::to_string(image.stride) +
                                                " bytes span more than the address space");
  }
  const std::size_t align = sample_bytes(image.format.sample);
  if (reinterpret_cast<std::uintptr_t>(image.data) % align != 0 || image.stride % align != 0) {
    throw Error(ErrorKind::InvalidArgument,
                "samples are not aligned to " + std::to_string(align) + " bytes");
  }
}

}  // namespace gpuhist
