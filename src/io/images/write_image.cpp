// Encoding images and pictures for a file through OpenImageIO; the file
// itself is written by the loader (picture_file.cpp, through OutputFile).
#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imageio.h>

#include <algorithm>
#include <vector>

#include "io/images/images.hpp"

namespace gpuhist::images {

namespace {

std::string message(std::string cause) {
  std::replace(cause.begin(), cause.end(), '\n', ' ');
  while (!cause.empty() && cause.back() == ' ') cause.pop_back();
  return cause.empty() ? "the image library gave no reason" : cause;
}

// Encodes for `target`'s format: into `bytes` where the format's writer
// writes to memory, so that every byte reaches the disk through the loader's
// checked writes (a full disk is reported, not a short file), otherwise into
// `file` directly. `pixels` writes the pixels into the opened output.
template <typename WritePixels>
io::Encoded encode(const std::filesystem::path& target, const std::filesystem::path& file,
                   const OIIO::ImageSpec& spec, std::vector<unsigned char>& bytes,
                   const WritePixels& pixels) {
  // The proxy outlives the writer that holds it.
  OIIO::Filesystem::IOVecOutput memory(bytes);
  auto out = OIIO::ImageOutput::create(target.string());
  if (!out) return {false, message(OIIO::geterror())};
  const bool in_memory = out->supports("ioproxy") != 0;
  if (in_memory && !out->set_ioproxy(&memory)) return {in_memory, message(out->geterror())};
  // The target's name picks the format; the bytes go to memory or the file.
  if (!out->open(in_memory ? target.string() : file.string(), spec)) {
    return {in_memory, message(out->geterror())};
  }
  if (!pixels(*out) || !out->close()) return {in_memory, message(out->geterror())};
  return {in_memory, {}};
}

}  // namespace

io::Encoded encode_image(const std::filesystem::path& target, const std::filesystem::path& file,
                         const ImageView& image, std::vector<unsigned char>& bytes) {
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
  return encode(target, file, spec, bytes, [&](OIIO::ImageOutput& out) {
    return out.write_image(type, image.data, pixel, static_cast<OIIO::stride_t>(image.stride));
  });
}

io::Encoded encode_picture(const std::filesystem::path& target, const std::filesystem::path& file,
                           const Picture& picture, std::vector<unsigned char>& bytes) {
  const OIIO::ImageSpec spec(static_cast<int>(picture.width), static_cast<int>(picture.height), 3,
                             OIIO::TypeDesc::UINT8);
  // RGBA in memory, RGB in the file: a 4-byte step between pixels.
  return encode(target, file, spec, bytes, [&](OIIO::ImageOutput& out) {
    return out.write_image(OIIO::TypeDesc::UINT8, picture.rgba.data(), 4);
  });
}

}  // namespace gpuhist::images
