#include <OpenImageIO/imageio.h>

#include <algorithm>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"

namespace gpuhist {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string cause) {
  std::replace(cause.begin(), cause.end(), '\n', ' ');
  throw Error(ErrorKind::Output, path.string() + ": cannot write: " + cause);
}

}  // namespace

void save_image(const std::filesystem::path& path, const ImageView& image) {
  validate(image);
  if (image.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "only 8- and 16-bit images are written");
  }
  auto out = OIIO::ImageOutput::create(path.string());
  if (!out) fail(path, OIIO::geterror());
  const OIIO::TypeDesc type =
      image.format.sample == SampleType::U8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16;
  const int channels = static_cast<int>(channel_count(image.format.layout));
  OIIO::ImageSpec spec(static_cast<int>(image.width), static_cast<int>(image.height), channels,
                       type);
  if (image.format.layout == ChannelLayout::RGBA) {
    spec.alpha_channel = 3;
    spec.attribute("oiio:UnassociatedAlpha", 1);  // the samples are written as they are
  }
  if (!out->open(path.string(), spec)) fail(path, out->geterror());
  const auto pixel = static_cast<OIIO::stride_t>(pixel_bytes(image.format));
  if (!out->write_image(type, image.data, pixel, static_cast<OIIO::stride_t>(image.stride)) ||
      !out->close()) {
    fail(path, out->geterror());
  }
}

void save_picture(const std::filesystem::path& path, const Picture& picture) {
  auto out = OIIO::ImageOutput::create(path.string());
  if (!out) fail(path, OIIO::geterror());
  const OIIO::ImageSpec spec(static_cast<int>(picture.width), static_cast<int>(picture.height), 3,
                             OIIO::TypeDesc::UINT8);
  if (!out->open(path.string(), spec)) fail(path, out->geterror());
  // RGBA in memory, RGB in the file: a 4-byte step between pixels.
  if (!out->write_image(OIIO::TypeDesc::UINT8, picture.rgba.data(), 4) || !out->close()) {
    fail(path, out->geterror());
  }
}

}  // namespace gpuhist
