#include "gpuhist/image_file.hpp"

#include <OpenImageIO/imageio.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <string_view>
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

namespace {

// The common formats and the extensions OpenImageIO gives them.
const std::set<std::string>& common_formats() {
  static const std::set<std::string> formats = {"jpeg", "png", "tiff", "webp",  "openexr", "gif",
                                                "bmp",  "pnm", "hdr",  "targa", "dpx"};
  return formats;
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension.size() < 2) return {};
  extension.erase(0, 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// OpenImageIO's format for an extension ("jpg" -> "jpeg"); empty when none.
std::string format_of_extension(const std::string& extension) {
  for (const auto& [format, list] : OIIO::get_extension_map()) {
    if (std::find(list.begin(), list.end(), extension) != list.end()) return format;
  }
  return {};
}

std::uint32_t le16(const unsigned char* p) { return p[0] | (std::uint32_t{p[1]} << 8); }
std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}
std::uint32_t le32(const unsigned char* p) {
  return p[0] | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}

// The first bytes of a file, enough for every signature and the header
// fields checked before decoding.
struct Head {
  std::array<unsigned char, 64> bytes{};
  std::size_t size = 0;  // of `bytes` read
  [[nodiscard]] bool starts(std::string_view magic) const {
    return size >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
  }
};

Head read_head(const std::filesystem::path& path) {
  Head head;
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(head.bytes.data()),
          static_cast<std::streamsize>(head.bytes.size()));
  head.size = static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount()));
  return head;
}

// The common format a file's signature shows; empty for none.
std::string sniff(const Head& h) {
  using namespace std::string_view_literals;
  if (h.starts("\xFF\xD8\xFF"sv)) return "jpeg";
  if (h.starts("\x89PNG\r\n\x1A\n"sv)) return "png";
  if (h.starts("II*\0"sv) || h.starts("MM\0*"sv) || h.starts("II+\0"sv) || h.starts("MM\0+"sv)) {
    return "tiff";
  }
  if (h.starts("RIFF"sv) && h.size >= 12 && std::memcmp(h.bytes.data() + 8, "WEBP", 4) == 0) {
    return "webp";
  }
  if (h.starts("\x76\x2F\x31\x01"sv)) return "openexr";
  if (h.starts("GIF87a"sv) || h.starts("GIF89a"sv)) return "gif";
  if (h.starts("BM"sv)) return "bmp";
  if (h.size >= 3 && h.bytes[0] == 'P' && std::strchr("123456fF", h.bytes[1]) != nullptr &&
      h.bytes[1] != '\0' && std::isspace(h.bytes[2]) != 0) {
    return "pnm";
  }
  if (h.starts("#?RADIANCE"sv) || h.starts("#?RGBE"sv)) return "hdr";
  if (h.starts("SDPX"sv) || h.starts("XPDS"sv)) return "dpx";
  return {};
}

// Sizes a header claims that a decoder would allocate for before reading a
// pixel: refused here when they exceed the limits or the file itself.
void check_header(const std::filesystem::path& path, const std::string& format, const Head& h,
                  std::uintmax_t file_bytes, std::uint64_t max_pixels) {
  if (format == "gif" && h.size >= 10) {
    // The logical screen, which the reader allocates as one canvas.
    const std::uint64_t w = le16(h.bytes.data() + 6), sh = le16(h.bytes.data() + 8);
    if (w * sh > max_pixels) {
      fail(path, "its GIF screen of " + std::to_string(w) + "x" + std::to_string(sh) + " = " +
                     std::to_string(w * sh) + " pixels exceeds the limit of " +
                     std::to_string(max_pixels) + " (--max-pixels)");
    }
  }
  if (format == "dpx" && h.size >= 36) {
    // User data and the image itself lie within the file.
    const bool big = h.starts("SDPX");
    const auto field = [&](std::size_t at) {
      return big ? be32(h.bytes.data() + at) : le32(h.bytes.data() + at);
    };
    const std::uint32_t image_offset = field(4), user_size = field(32);
    if (image_offset > file_bytes || (user_size != 0xFFFFFFFFU && user_size > file_bytes)) {
      fail(path, "corrupt DPX header: it places data beyond the end of the file");
    }
  }
}

// The most bytes of samples (as stored, every channel) one byte of a file of
// `format` can decode to, where its coding bounds it (deflate: about 1032:1;
// run lengths: about 128:1 a channel; LZW: about 2730:1), with room to spare;
// 0 where it is not bounded (JPEG's end-of-band runs, WebP's one-symbol codes,
// TIFF's many codings).
std::uint64_t max_expansion(const std::string& format, const OIIO::ImageSpec& spec) {
  if (format == "png") return 4096;
  if (format == "gif") return 32768;
  if (format == "hdr" || format == "bmp" || format == "targa") return 1024;
  if (format == "pnm" || format == "dpx") return 128;
  if (format == "openexr") {
    const std::string compression = spec.get_string_attribute("compression");
    if (compression == "none") return 16;
    if (compression == "rle" || compression.rfind("b44", 0) == 0) return 1024;
    if (compression == "zip" || compression == "zips" || compression == "pxr24") return 4096;
  }
  return 0;
}

}  // namespace

std::string common_format_of(const std::filesystem::path& path) {
  const std::string sniffed = sniff(read_head(path));
  if (!sniffed.empty()) return sniffed;
  const std::string by_extension = format_of_extension(lower_extension(path));
  return by_extension == "targa" ? by_extension : std::string();
}

Image load_image(const std::filesystem::path& path, const LoadOptions& options) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    fail(path, ec == std::errc::filename_too_long ? "file name too long" : "no such file");
  }
  if (std::filesystem::is_directory(status)) fail(path, "is a directory");
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (file_bytes == 0 && !ec) fail(path, "file is empty");
  if (::access(path.c_str(), R_OK) != 0)
    fail(path, "cannot open: " + std::generic_category().message(errno));

  const Head head = read_head(path);
  std::string format = sniff(head);
  const std::string by_extension = format_of_extension(lower_extension(path));
  if (format.empty() && by_extension == "targa") format = by_extension;
  if (format.empty() && options.formats == FormatSet::Common) {
    if (common_formats().count(by_extension) != 0) {
      fail(path, "cannot read image: not a " + by_extension +
                     " file (it does not start as one), nor of another format read by default");
    }
    if (!by_extension.empty()) {
      fail(path, "cannot read image: " + by_extension +
                     " files are not read by default (--formats all reads them)");
    }
    fail(path,
         "cannot read image: not a JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP, PNM, HDR, Targa or "
         "DPX file (--formats all tries every format the image library reads)");
  }
  check_header(path, format, head, file_bytes, options.max_pixels);

  // Keep stored samples as they are: no premultiplication by alpha on read.
  OIIO::ImageSpec config;
  config.attribute("oiio:UnassociatedAlpha", 1);
  std::unique_ptr<OIIO::ImageInput> input;
  if (format.empty()) {
    input = OIIO::ImageInput::open(path.string(), &config);  // every reader may try
  } else {
    // Only the reader of the format the signature shows.
    input = OIIO::ImageInput::create(format);
    OIIO::ImageSpec opened;
    if (input && !input->open(path.string(), opened, config)) {
      const std::string cause = one_line(input->geterror());
      fail(path, "cannot read image: " + cause);
    }
  }
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
  // Decoders read every channel of the file as stored, whatever is asked for.
  std::uint64_t sample_bytes = spec.format.size();
  for (const OIIO::TypeDesc& t : spec.channelformats)
    sample_bytes = std::max<std::uint64_t>(sample_bytes, t.size());
  const std::uint64_t stored = pixels * std::uint64_t(spec.nchannels) * sample_bytes;
  if (stored / 16 > options.max_pixels) {
    fail(path, std::to_string(spec.width) + "x" + std::to_string(spec.height) + " pixels of " +
                   std::to_string(spec.nchannels) + " channels take " + std::to_string(stored) +
                   " bytes, over the limit of " + std::to_string(options.max_pixels) +
                   " pixels x 16 bytes (--max-pixels)");
  }

  // A header claiming more pixels than the file could hold (a corrupt or
  // crafted file) is refused before memory is sized for them.
  const std::uint64_t expansion = max_expansion(input->format_name(), spec);
  if (expansion != 0 && stored > std::uint64_t{file_bytes} * expansion + (1U << 20)) {
    fail(path, "corrupt image: its header claims " + std::to_string(spec.width) + "x" +
                   std::to_string(spec.height) + " pixels, more than its " +
                   std::to_string(file_bytes) + " bytes can hold");
  }

  const ChannelLayout layout = spec.nchannels >= 4 && options.alpha ? ChannelLayout::RGBA
                               : spec.nchannels >= 3                ? ChannelLayout::RGB
                                                                    : ChannelLayout::Grey;
  const PixelFormat pixel_format{layout, sample_type(spec.format)};
  Image image;
  try {
    image = Image::allocate(static_cast<std::uint32_t>(spec.width),
                            static_cast<std::uint32_t>(spec.height), pixel_format);
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory for " + std::to_string(pixels * pixel_bytes(pixel_format)) +
                   " bytes of pixels");
  }
  image.codec = input->format_name();
  const bool file_alpha = spec.alpha_channel >= 0 || spec.nchannels == 2 || spec.nchannels == 4;
  image.alpha = file_alpha && layout != ChannelLayout::RGBA;
  const int channels = static_cast<int>(channel_count(layout));
  bool ok = false;
  try {
    ok = input->read_image(0, 0, 0, channels, type_desc(pixel_format.sample), image.storage.data(),
                           OIIO::AutoStride, static_cast<OIIO::stride_t>(image.stride));
  } catch (const std::bad_alloc&) {
    fail(path, "not enough memory to decode it");
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt image: the decoder failed: ") + e.what());
  }
  if (!ok || input->has_error()) {
    fail(path, "corrupt or truncated image: " + one_line(input->geterror()));
  }
  // Multipage TIFFs and multipart EXRs: only the first page is read.
  if (format == "tiff" || format == "openexr") image.more_pages = input->seek_subimage(1, 0);
  (void)input->geterror();
  input->close();
  return image;
}

bool has_image_extension(const std::filesystem::path& path, FormatSet formats) {
  const std::string format = format_of_extension(lower_extension(path));
  if (format.empty()) return false;
  return formats == FormatSet::All || common_formats().count(format) != 0;
}

}  // namespace gpuhist
