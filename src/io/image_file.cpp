#include "gpuhist/image_file.hpp"

#include <OpenImageIO/imageio.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <system_error>

#include "gpuhist/error.hpp"

namespace gpuhist {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& cause) {
  throw Error(ErrorKind::Input, path.string() + ": " + cause);
}

// OpenImageIO messages can span lines; the CLI prints one line per error.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text.empty() ? "unknown decoder error" : text;
}

SampleType sample_type(const OIIO::TypeDesc& type) {
  if (type.basetype == OIIO::TypeDesc::UINT8) return SampleType::U8;
  if (type.basetype == OIIO::TypeDesc::UINT16) return SampleType::U16;
  return SampleType::F32;
}

OIIO::TypeDesc type_desc(SampleType sample) {
  switch (sample) {
    case SampleType::U8:
      return OIIO::TypeDesc::UINT8;
    case SampleType::U16:
      return OIIO::TypeDesc::UINT16;
    case SampleType::F32:
      return OIIO::TypeDesc::FLOAT;
  }
  return OIIO::TypeDesc::FLOAT;
}

}  // namespace

Image load_image(const std::filesystem::path& path, const LoadOptions& options) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) fail(path, "no such file");
  if (std::filesystem::is_directory(status)) fail(path, "is a directory");
  if (std::filesystem::file_size(path, ec) == 0 && !ec) fail(path, "file is empty");

  // Keep stored samples as they are: no premultiplication by alpha on read.
  OIIO::ImageSpec config;
  config.attribute("oiio:UnassociatedAlpha", 1);
  auto input = OIIO::ImageInput::open(path.string(), &config);
  if (!input) {
    std::string cause = one_line(OIIO::geterror());
    if (cause.find("not exist") != std::string::npos) cause = "no such file";
    fail(path, "cannot read image: " + cause);
  }
  const OIIO::ImageSpec& spec = input->spec();
  if (spec.width <= 0 || spec.height <= 0 || spec.nchannels <= 0) {
    fail(path, "image has zero size");
  }
  if (spec.depth > 1) fail(path, "volume images are not supported");
  const auto pixels = std::uint64_t(spec.width) * std::uint64_t(spec.height);
  if (pixels > options.max_pixels) {
    fail(path, std::to_string(spec.width) + "x" + std::to_string(spec.height) + " = " +
                   std::to_string(pixels) + " pixels exceeds the limit of " +
                   std::to_string(options.max_pixels) + " (--max-pixels)");
  }

  const ChannelLayout layout = spec.nchannels >= 4 && options.alpha ? ChannelLayout::RGBA
                               : spec.nchannels >= 3                ? ChannelLayout::RGB
                                                                    : ChannelLayout::Grey;
  const PixelFormat format{layout, sample_type(spec.format)};
  Image image;
  try {
    image = Image::allocate(static_cast<std::uint32_t>(spec.width),
                            static_cast<std::uint32_t>(spec.height), format);
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory for " + std::to_string(pixels * pixel_bytes(format)) +
                   " bytes of pixels");
  }
  image.codec = input->format_name();
  const int channels = static_cast<int>(channel_count(layout));
  const bool ok = input->read_image(0, 0, 0, channels, type_desc(format.sample),
                                    image.storage.data(), OIIO::AutoStride,
                                    static_cast<OIIO::stride_t>(image.stride));
  if (!ok || input->has_error()) {
    fail(path, "corrupt or truncated image: " + one_line(input->geterror()));
  }
  input->close();
  return image;
}

bool has_image_extension(const std::filesystem::path& path) {
  static const std::set<std::string> extensions = [] {
    std::set<std::string> out;
    for (const auto& [format, list] : OIIO::get_extension_map()) {
      for (const auto& extension : list) out.insert(extension);
    }
    return out;
  }();
  std::string extension = path.extension().string();
  if (extension.size() < 2) return false;
  extension.erase(0, 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extensions.count(extension) != 0;
}

}  // namespace gpuhist
