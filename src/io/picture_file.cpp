#include <OpenImageIO/imageio.h>

#include <algorithm>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"

namespace gpuhist {

void save_picture(const std::filesystem::path& path, const Picture& picture) {
  const auto fail = [&](std::string cause) {
    std::replace(cause.begin(), cause.end(), '\n', ' ');
    throw Error(ErrorKind::Output, path.string() + ": cannot write: " + cause);
  };
  auto out = OIIO::ImageOutput::create(path.string());
  if (!out) fail(OIIO::geterror());
  const OIIO::ImageSpec spec(static_cast<int>(picture.width), static_cast<int>(picture.height), 3,
                             OIIO::TypeDesc::UINT8);
  if (!out->open(path.string(), spec)) fail(out->geterror());
  // RGBA in memory, RGB in the file: a 4-byte step between pixels.
  if (!out->write_image(OIIO::TypeDesc::UINT8, picture.rgba.data(), 4) || !out->close()) {
    fail(out->geterror());
  }
}

}  // namespace gpuhist
