#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imageio.h>

#include <algorithm>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"

namespace gpuhist {

namespace {

std::string message(std::string cause) {
  std::replace(cause.begin(), cause.end(), '\n', ' ');
  while (!cause.empty() && cause.back() == ' ') cause.pop_back();
  return cause.empty() ? "the image library gave no reason" : cause;
}

// Encodes an image into `path` through OpenImageIO: into memory where the
// format's writer takes it, so that every byte reaches the disk through
// OutputFile's checked writes (a full disk is reported, not a short file),
// otherwise into the temporary file directly. `pixels` writes the pixels into
// the opened output; the file is complete or absent afterwards.
template <typename WritePixels>
void encode(const std::filesystem::path& path, const OIIO::ImageSpec& spec,
            const WritePixels& pixels) {
  // The buffer and its proxy outlive the writer that holds them.
  std::vector<unsigned char> bytes;
  OIIO::Filesystem::IOVecOutput memory(bytes);
  auto out = OIIO::ImageOutput::create(path.string());
  if (!out) output_failed(path, message(OIIO::geterror()));
  OutputFile file(path);
  const bool in_memory = out->supports("ioproxy") != 0;
  if (in_memory && !out->set_ioproxy(&memory)) output_failed(path, message(out->geterror()));
  // The target's name picks the format; the bytes go to memory or the temporary file.
  if (!out->open(in_memory ? path.string() : file.path().string(), spec)) {
    output_failed(path, message(out->geterror()));
  }
  if (!pixels(*out) || !out->close()) output_failed(path, message(out->geterror()));
  if (in_memory) file.write(std::as_bytes(std::span(bytes)));
  file.commit();
}

}  // namespace

void save_image(const std::filesystem::path& path, const ImageView& image) {
  validate(image);
  if (image.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "only 8- and 16-bit images are written");
  }
  const OIIO::TypeDesc type =
      image.format.sample == SampleType::U8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16;
  const int channels = static_cast<int>(channel_count(image.format.layout));
  OIIO::ImageSpec spec(static_cast<int>(image.width), static_cast<int>(image.height), channels,
                       type);
  if (image.format.layout == ChannelLayout::RGBA) {
    spec.alpha_channel = 3;
    spec.attribute("oiio:UnassociatedAlpha", 1);  // the samples are written as they are
  }
  const auto pixel = static_cast<OIIO::stride_t>(pixel_bytes(image.format));
  encode(path, spec, [&](OIIO::ImageOutput& out) {
    return out.write_image(type, image.data, pixel, static_cast<OIIO::stride_t>(image.stride));
  });
}

void save_picture(const std::filesystem::path& path, const Picture& picture) {
  const OIIO::ImageSpec spec(static_cast<int>(picture.width), static_cast<int>(picture.height), 3,
                             OIIO::TypeDesc::UINT8);
  // RGBA in memory, RGB in the file: a 4-byte step between pixels.
  encode(path, spec, [&](OIIO::ImageOutput& out) {
    return out.write_image(OIIO::TypeDesc::UINT8, picture.rgba.data(), 4);
  });
}

}  // namespace gpuhist
