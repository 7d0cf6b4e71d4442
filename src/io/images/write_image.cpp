// Encoding images and pictures for a file through OpenImageIO; the file
// itself is written by the loader (picture_file.cpp, through OutputFile).
#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imageio.h>
#include <OpenImageIO/tiffutils.h>
#include <webp/encode.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/eight_bit.hpp"
#include "io/images/byte_order.hpp"
#include "io/images/images.hpp"
#include "io/images/memory_file.hpp"
#include "io/images/memory_reader.hpp"
#include "io/images/picture_tags.hpp"
#include "io/images/png_chunks.hpp"
#include "io/images/pnm_samples.hpp"

namespace gpuhist::images {

namespace {

std::string message(std::string cause) {
  std::replace(cause.begin(), cause.end(), '\n', ' ');
  while (!cause.empty() && cause.back() == ' ') cause.pop_back();
  return cause.empty() ? "the image library gave no reason" : cause;
}

// Whether the writer keeps alpha: OpenImageIO 2.4's GIF writer says it does,
// and writes every pixel opaque.
bool keeps_alpha(const OIIO::ImageOutput& out) {
  return out.supports("alpha") != 0 && std::strcmp(out.format_name(), "gif") != 0;
}

// Whether `path`'s extension is `extension` (".pgm"), in any case.
bool named(const std::filesystem::path& path, std::string_view extension) {
  const std::string own = path.extension().string();
  return own.size() == extension.size() &&
         std::equal(own.begin(), own.end(), extension.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

// Whether the writer takes grey images: OpenImageIO 2.4's WebP, GIF, Radiance
// HDR, HEIF and IFF writers refuse them (and its WebP writer then frees what
// it never made).
bool takes_grey(const OIIO::ImageOutput& out) {
  for (const char* colour_only : {"webp", "gif", "hdr", "heif", "iff"}) {
    if (std::strcmp(out.format_name(), colour_only) == 0) return false;
  }
  return true;
}

// What the opened writer keeps of an image of `asked`: its 16-bit samples as
// 8 bits (JPEG, PNM, BMP, WebP) or as half floats (OpenEXR, which hold 11
// significant bits), any samples inexactly (Radiance HDR's RGBE), its alpha
// not at all (JPEG, PNM, Radiance HDR). Said as
// a clause for the caller's warning; "" when the file holds it all.
std::string left_out(const OIIO::ImageSpec& asked, const OIIO::ImageOutput& out) {
  std::string said;
  const OIIO::TypeDesc written = out.spec().format;
  static const std::map<std::string, std::string> names = {
      {"jpeg", "JPEG"}, {"openexr", "OpenEXR"}, {"pnm", "PNM"},          {"bmp", "BMP"},
      {"webp", "WebP"}, {"targa", "Targa"},     {"hdr", "Radiance HDR"}, {"gif", "GIF"},
      {"heif", "HEIF"}, {"iff", "IFF"}};
  const auto named = names.find(out.format_name());
  const std::string format = named != names.end() ? named->second : out.format_name();
  const std::string file =
      (std::string("AEIO").find(format[0]) != std::string::npos ? "an " : "a ") + format + " file";
  if (std::strcmp(out.format_name(), "hdr") == 0) {
    said = file +
           " holds each colour as three 8-bit mantissas sharing an exponent (RGBE): the samples "
           "are not kept exactly";
  } else if (asked.format == OIIO::TypeDesc::UINT16 && written.size() < 2) {
    said = file + " holds 8-bit samples: the 16-bit samples are scaled to 8 bits";
  } else if (asked.format == OIIO::TypeDesc::UINT16 && written == OIIO::TypeDesc::HALF) {
    said = file +
           " holds these samples as half floats, whose 11 significant bits do not keep "
           "every 16-bit value";
  }
  if (asked.alpha_channel >= 0 && !keeps_alpha(out)) {
    said += (said.empty() ? file : "; it") + std::string(" holds no alpha: the alpha is left out");
  }
  return said;
}

// Writers that write their files themselves and let a failed write pass
// unreported: on a full disk, a short or empty file and no error.
bool unchecked_writes(const OIIO::ImageOutput& out) {
  const std::string_view format = out.format_name();
  return format == "sgi" || format == "fits";
}

// Encodes for `target`'s format: into `bytes` where the format's writer
// writes to memory (through a proxy, or into a file in memory for the
// writers whose own writes are unchecked), so that every byte reaches the
// disk through the loader's checked writes (a full disk is reported, not a
// short file), otherwise into `file` directly. `writer`: the format's writer,
// made for `target` (null where no format has its extension). `pixels`
// writes the pixels into the opened output.
template <typename WritePixels>
io::Encoded encode(std::unique_ptr<OIIO::ImageOutput> writer, const std::filesystem::path& target,
                   const std::filesystem::path& file, const OIIO::ImageSpec& spec,
                   std::vector<unsigned char>& bytes, const WritePixels& pixels) {
  // The proxy and the file in memory outlive the writer that holds them.
  OIIO::Filesystem::IOVecOutput memory(bytes);
  std::optional<MemoryFile> staged;
  const std::unique_ptr<OIIO::ImageOutput> out = std::move(writer);
  if (!out) return {false, message(OIIO::geterror()), {}};
  const bool proxied = out->supports("ioproxy") != 0;
  if (!proxied && unchecked_writes(*out)) staged.emplace();
  if (staged && !staged->opened()) staged.reset();
  const bool in_memory = proxied || staged.has_value();
  if (proxied && !out->set_ioproxy(&memory)) return {in_memory, message(out->geterror()), {}};
  // A format without alpha (JPEG, PNM) is given the colour channels alone:
  // the writer reads the first three of each pixel's four.
  OIIO::ImageSpec written = spec;
  if (spec.alpha_channel >= 0 && !keeps_alpha(*out)) {
    written.nchannels = spec.alpha_channel;
    written.channelnames.resize(static_cast<std::size_t>(written.nchannels));
    written.alpha_channel = -1;
  }
  // The target's name picks the format; the bytes go to memory or the file.
  const std::string name = staged ? staged->name() : proxied ? target.string() : file.string();
  if (!out->open(name, written)) return {in_memory, message(out->geterror()), {}};
  std::string narrowed = left_out(spec, *out);
  if (!pixels(*out) || !out->close()) return {in_memory, message(out->geterror()), {}};
  if (staged && !staged->read_all(bytes)) return {in_memory, std::strerror(errno), {}};
  // The SGI writer leaves the rest of its header's 80-byte name field (bytes
  // 24 to 103) as its stack held it: addresses in the file, different each
  // run. The field is written again: the description, then zeros.
  if (staged && std::string_view(out->format_name()) == "sgi" && bytes.size() >= 104) {
    const std::string description = written.get_string_attribute("ImageDescription");
    std::fill(bytes.begin() + 24, bytes.begin() + 104, 0);
    std::copy_n(description.begin(), std::min<std::size_t>(description.size(), 79),
                bytes.begin() + 24);
  }
  return {in_memory, {}, std::move(narrowed)};
}

// An Exif or GPS field as the image library names it: in the namespaces of their
// directories, but for the two it names as TIFF tags.
bool is_exif_field(const std::string& name) {
  return name.rfind("Exif:", 0) == 0 || name.rfind("GPS:", 0) == 0 || name == "ExposureTime" ||
         name == "FNumber";
}

// The metadata of an image that describes the picture rather than its
// encoding: orientation, resolution, captions and rights, camera, Exif, GPS
// and IPTC fields. `directories`: Exif and GPS fields, which a TIFF holds in
// directories of their own, which the TIFF writer does not write whole into
// memory (a file missing its ImageLength, OpenImageIO 2.4).
bool describes_the_picture(const OIIO::ParamValue& p, bool directories) {
  const std::string name = p.name().string();
  // Of the type the image library gives each: a PNG's text keyword of the same
  // name (a tEXt "Orientation") is a string, and is not taken for the tag.
  const OIIO::TypeDesc type = p.type();
  // (A PNG's eXIf gives its orientation as a 16-bit integer, a TIFF as an int.)
  if (name == "Orientation") {
    return type == OIIO::TypeDesc::INT || type == OIIO::TypeDesc::UINT16 ||
           type == OIIO::TypeDesc::UINT32 || type == OIIO::TypeDesc::INT16;
  }
  for (const char* n : {"XResolution", "YResolution", "PixelAspectRatio"}) {
    if (name == n) return type == OIIO::TypeDesc::FLOAT;
  }
  for (const char* n : {"ResolutionUnit", "ImageDescription", "Artist", "Copyright", "DateTime",
                        "Make", "Model", "DocumentName", "HostComputer", "Software", "Keywords"}) {
    if (name == n) return type == OIIO::TypeDesc::STRING;
  }
  if (name.rfind("IPTC:", 0) == 0) return true;
  return directories && is_exif_field(name);
}

// An ICC profile for an image with colour or grey: its header's colour space
// is RGB or grey (not CMYK, whatever the channels the image library gives).
bool profile_fits(const OIIO::ParamValue& p, bool colour) {
  if (p.type().basetype != OIIO::TypeDesc::UINT8 || p.type().size() < 20) return false;
  const auto* header = static_cast<const unsigned char*>(p.data());
  return std::memcmp(header + 16, colour ? "RGB " : "GRAY", 4) == 0;
}

// The pixel density as the writer of `format` reads it from `spec`: the unit
// as "in" or "cm" (a PNG's reader says "inch"; the JPEG writer takes "in"
// alone), and the pixels' aspect ratio with it for a TIFF (whose writer takes
// the height's density from the width's and that ratio), none for a JPEG
// (whose writer takes the ratio the other way round, as some programs do, and
// the densities as they are without it).
void same_density_everywhere(OIIO::ImageSpec& spec, const std::string& format) {
  const float x = spec.get_float_attribute("XResolution", 0.0F);
  const float y = spec.get_float_attribute("YResolution", 0.0F);
  if (!(x > 0.0F) || !(y > 0.0F)) return;
  const std::string unit = spec.get_string_attribute("ResolutionUnit");
  if (unit == "inch" || unit == "inches") spec.attribute("ResolutionUnit", "in");
  if (unit == "centimeter" || unit == "centimeters") spec.attribute("ResolutionUnit", "cm");
  if (format == "jpeg") {
    spec.erase_attribute("PixelAspectRatio");
  } else {
    spec.attribute("PixelAspectRatio", y / x);
  }
}

// What add_metadata_of found of a source's metadata.
struct SourceMetadata {
  // False where `from` holds an ICC profile the image library would read out
  // of bounds: nothing was added.
  bool sound = true;
  bool not_kept = false;         // a JPEG's or WebP's besides, which is not written
  bool damaged_profile = false;  // its ICC profile does not add up, and is not written
  // A TIFF's or PNG's metadata that a TIFF, PNG, JPEG or OpenEXR output does
  // not get, named: "GPS fields and XMP"; empty where it gets it all.
  std::string unwritten;
};

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return text;
}

// `spec` with what `from` says about the picture, for a writer of `format`
// (OpenImageIO's name): a TIFF, PNG or OpenEXR file what the image library
// reads of it (see open_for_metadata); a JPEG or WebP file its orientation and
// ICC profile, read by picture_tags.hpp, and a JPEG its chroma subsampling (a
// camera's 4:4:4 is not halved; a JPEG written from a JPEG keeps all of its
// own metadata as bytes besides, in the loader: io/kept_metadata.hpp).
SourceMetadata add_metadata_of(const std::filesystem::path& from, const std::string& format,
                               OIIO::ImageSpec& spec) {
  SourceMetadata found;
  const bool colour = spec.nchannels >= 3;
  const std::string source_format = common_format_of(from);
  if (source_format == "jpeg" || source_format == "webp") {
    const PictureTags tags =
        source_format == "jpeg" ? jpeg_picture_tags(from) : webp_picture_tags(from);
    if (tags.orientation != 1) spec.attribute("Orientation", int{tags.orientation});
    if (!tags.icc_profile.empty()) {
      const OIIO::TypeDesc type(OIIO::TypeDesc::UINT8, static_cast<int>(tags.icc_profile.size()));
      const OIIO::ParamValue profile("ICCProfile", type, 1, tags.icc_profile.data());
      if (profile_fits(profile, colour)) spec.extra_attribs.push_back(profile);
    }
    // The JPEG writer takes 4:4:4, 4:2:2, 4:2:0 and 4:1:1: a 4:4:0 source (a
    // camera's 4:2:2 turned losslessly) keeps its chroma whole as 4:4:4.
    if (colour && !tags.subsampling.empty() && format == "jpeg") {
      spec.attribute("jpeg:subsampling", tags.subsampling == "4:4:0" ? "4:4:4" : tags.subsampling);
    }
    if (!tags.resolution_unit.empty()) {
      spec.attribute("XResolution", tags.x_resolution);
      spec.attribute("YResolution", tags.y_resolution);
      spec.attribute("ResolutionUnit", tags.resolution_unit);
    }
    same_density_everywhere(spec, format);
    // (A JPEG written from a JPEG keeps them all as bytes: io/kept_metadata.hpp.)
    const bool jpeg_to_jpeg = source_format == "jpeg" && format == "jpeg";
    found.not_kept = tags.other_metadata && !jpeg_to_jpeg;
    found.damaged_profile = tags.damaged_profile && !jpeg_to_jpeg;
    return found;
  }
  if (has_unsound_profile(from)) {
    found.sound = false;
    return found;
  }
  const bool directories = format != "tiff";
  const auto pixels =
      static_cast<std::uint64_t>(spec.width) * static_cast<std::uint64_t>(spec.height);
  const std::unique_ptr<OIIO::ImageInput> in = open_for_metadata(from, pixels);
  if (!in) return found;
  const OIIO::ImageSpec& source = in->spec();
  for (const OIIO::ParamValue& p : source.extra_attribs) {
    const bool profile = p.name() == "ICCProfile" && profile_fits(p, colour);
    if (!profile && !describes_the_picture(p, directories)) continue;
    if (p.name() == "Orientation") {
      // As the writers take it: an int (1 to 8).
      const int orientation = p.get_int();
      if (orientation >= 1 && orientation <= 8) spec.attribute("Orientation", orientation);
    } else {
      spec.extra_attribs.push_back(p);
    }
  }
  same_density_everywhere(spec, format);
  // What is not written: Exif and GPS fields to a TIFF (describes_the_picture),
  // and what the library does not read (a TIFF's GPS fields) or reads a few
  // fields of (XMP). A PNG written from a PNG keeps it all as bytes
  // (io/kept_metadata.hpp).
  if (source_format != "png" || format != "png") {
    bool exif = false, gps = false;
    for (const OIIO::ParamValue& p : source.extra_attribs) {
      const std::string name = p.name().string();
      if (!is_exif_field(name)) continue;
      (name.rfind("GPS:", 0) == 0 ? gps : exif) = true;
    }
    const UnreadMetadata unread = unread_metadata(from);
    // A TIFF's ISO, which the library's TIFF reader leaves out, from its Exif directory.
    if (unread.iso != 0 && directories &&
        source.find_attribute("Exif:PhotographicSensitivity") == nullptr) {
      spec.attribute("Exif:PhotographicSensitivity", static_cast<int>(unread.iso));
    }
    std::vector<std::string> left;
    gps = (gps && !directories) || unread.gps;
    exif = exif && !directories;
    if (exif) left.emplace_back("Exif fields");
    if (gps) left.emplace_back("GPS fields");
    // (Of its XMP, the library reads a few fields, such as a title, as IPTC.)
    if (unread.xmp) left.emplace_back("XMP packet");
    found.unwritten = listed(left);
  }
  return found;
}

// How many pixels of `image` (8-bit RGB or RGBA) the GIF file `bytes` holds
// in another colour: its writer (OpenImageIO 2.4's) makes a palette of at
// most 256 colours, by a median cut that merges some colours of pictures of
// fewer. Read back from memory; -1 when it cannot be.
std::int64_t gif_colours_changed(const std::vector<unsigned char>& bytes, const ImageView& image) {
  MemoryReader memory(bytes.data(), bytes.size());
  auto in = OIIO::ImageInput::create("gif");
  OIIO::ImageSpec opened;
  if (!in || !in->set_ioproxy(&memory) || !in->open("written.gif", opened) ||
      opened.width != static_cast<int>(image.width) ||
      opened.height != static_cast<int>(image.height) || opened.nchannels < 3) {
    return -1;
  }
  std::vector<std::uint8_t> back(std::size_t{image.width} * image.height * 3);
  if (!in->read_image(0, 0, 0, 3, OIIO::TypeDesc::UINT8, back.data())) return -1;
  const std::size_t step = pixel_bytes(image.format);
  std::int64_t changed = 0;
  const std::uint8_t* read = back.data();
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const auto* px = reinterpret_cast<const std::uint8_t*>(image.row(y));
    for (std::uint32_t x = 0; x < image.width; ++x, px += step, read += 3) {
      changed += std::memcmp(px, read, 3) != 0 ? 1 : 0;
    }
  }
  return changed;
}

// What a GIF file changed of `image`, as a clause of the writer's warning
// (`first`: the warning's first, which names the file's format).
std::string gif_palette_note(const std::vector<unsigned char>& bytes, const ImageView& image,
                             bool first) {
  const std::int64_t changed =
      image.format.sample == SampleType::U8 ? gif_colours_changed(bytes, image) : -1;
  if (changed == 0) return {};
  const std::string said =
      std::string(first ? "a GIF file" : "it") + " holds a palette of 256 colours at most: ";
  if (changed < 0) return said + "the picture's colours may be approximated";
  return said + std::to_string(changed) + " of the picture's pixels are written in a near colour";
}

// Exif data (a big-endian TIFF directory of one entry, with no JPEG prefix)
// that holds `orientation` (1 to 8) alone.
std::vector<unsigned char> orientation_exif(int orientation) {
  return {'M',  'M',  0, 42, 0, 0, 0, 8, 0, 1,
          0x01, 0x12, 0, 3,  0, 0, 0, 1, 0, static_cast<unsigned char>(orientation),
          0,    0,    0, 0,  0, 0};
}

// A WebP file as its writer wrote it (one VP8 or VP8L image, or with alpha
// VP8X, ALPH and VP8: OpenImageIO 2.4's writer writes no metadata) in the
// extended format, with an ICCP chunk holding `profile` (where not empty)
// right after VP8X and an EXIF chunk holding `orientation` (where not 1) after
// the image. Unchanged where the file is not such a WebP.
void add_webp_metadata(std::vector<unsigned char>& webp, int orientation,
                       std::span<const unsigned char> profile) {
  if ((orientation == 1 && profile.empty()) || webp.size() < 30 ||
      std::memcmp(webp.data(), "RIFF", 4) != 0 || std::memcmp(webp.data() + 8, "WEBP", 4) != 0) {
    return;
  }
  const unsigned char* image = webp.data() + 12;
  const std::uint64_t image_bytes = 8 + std::uint64_t{little32(image + 4)};
  if (12 + image_bytes + (image_bytes & 1U) > webp.size()) return;
  // The canvas, and whether the image uses alpha, from the image's own header.
  std::uint32_t width = 0, height = 0;
  bool alpha = false;
  if (std::memcmp(image, "VP8 ", 4) == 0) {
    width = little16(image + 14) & 0x3FFFU;
    height = little16(image + 16) & 0x3FFFU;
  } else if (std::memcmp(image, "VP8L", 4) == 0 && image[8] == 0x2F) {
    const std::uint32_t bits = little32(image + 9);
    width = 1 + (bits & 0x3FFFU);
    height = 1 + ((bits >> 14) & 0x3FFFU);
    alpha = ((bits >> 28) & 1U) != 0;
  }
  const bool extended = std::memcmp(image, "VP8X", 4) == 0 && little32(image + 4) == 10;
  if (!extended && (width == 0 || height == 0)) return;  // not a picture
  const auto chunk = [](const char* code, std::span<const unsigned char> data) {
    std::vector<unsigned char> out(code, code + 4);
    const auto size = static_cast<std::uint32_t>(data.size());
    for (const int shift : {0, 8, 16, 24}) out.push_back(static_cast<unsigned char>(size >> shift));
    out.insert(out.end(), data.begin(), data.end());
    if ((data.size() & 1U) != 0) out.push_back(0);
    return out;
  };
  const std::vector<unsigned char> exif =
      orientation != 1 ? orientation_exif(orientation) : std::vector<unsigned char>{};
  const std::uint8_t flags = (profile.empty() ? 0 : 0x20) | (exif.empty() ? 0 : 0x08);
  std::vector<unsigned char> header(10, 0);
  if (extended) {
    // The writer's own VP8X (alpha): its canvas and flags, with the new chunks'.
    std::memcpy(header.data(), image + 8, 10);
    header[0] |= flags;
  } else {
    header[0] = static_cast<unsigned char>(flags | (alpha ? 0x10 : 0));
    for (std::size_t i = 0; i < 3; ++i) {
      header[4 + i] = static_cast<unsigned char>((width - 1) >> (8 * i));
      header[7 + i] = static_cast<unsigned char>((height - 1) >> (8 * i));
    }
  }
  std::vector<unsigned char> out(webp.begin(), webp.begin() + 12);
  const auto append = [&](const std::vector<unsigned char>& bytes) {
    out.insert(out.end(), bytes.begin(), bytes.end());
  };
  append(chunk("VP8X", header));
  if (!profile.empty()) append(chunk("ICCP", profile));
  // The image's chunks: the one chunk, or all after the writer's VP8X.
  const std::size_t riff_end =
      std::min<std::size_t>(webp.size(), 8 + std::size_t{little32(webp.data() + 4)});
  const std::size_t image_from = extended ? 12 + 18 : 12;
  const std::size_t image_to = extended ? riff_end : 12 + image_bytes + (image_bytes & 1U);
  if (image_to < image_from) return;
  out.insert(out.end(), webp.begin() + static_cast<std::ptrdiff_t>(image_from),
             webp.begin() + static_cast<std::ptrdiff_t>(image_to));
  if (!exif.empty()) append(chunk("EXIF", exif));
  const auto riff = static_cast<std::uint32_t>(out.size() - 8);
  for (std::size_t i = 0; i < 4; ++i) out[4 + i] = static_cast<unsigned char>(riff >> (8 * i));
  webp = std::move(out);
}

// An eXIf chunk holding `exif` (TIFF-format Exif) put after a PNG's header:
// OpenImageIO 2.4's PNG writer writes no Exif. Nothing where the file is not
// a PNG or holds one already.
void add_png_exif(std::vector<unsigned char>& png, std::span<const unsigned char> exif) {
  constexpr std::size_t kAfterHeader = 8 + 12 + 13;  // the signature and IHDR
  ByteSource bytes{std::span<const unsigned char>(png)};
  PngChunks chunks(bytes);
  const std::optional<PngChunk> header = chunks.next();
  if (!header || !header->is("IHDR") || header->length != 13 || png.size() < kAfterHeader) return;
  // The chunks, by their framing, for one holding Exif already.
  while (const std::optional<PngChunk> chunk = chunks.next()) {
    if (chunk->is("eXIf")) return;
    if (chunk->is("IEND")) break;
  }
  // Length, type, data, CRC (over the type and data).
  std::vector<unsigned char> chunk(12 + exif.size());
  const auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i)
      chunk[at + i] = static_cast<unsigned char>(v >> (24 - 8 * i));
  };
  put32(0, static_cast<std::uint32_t>(exif.size()));
  std::memcpy(&chunk[4], "eXIf", 4);
  std::copy(exif.begin(), exif.end(), chunk.begin() + 8);
  put32(8 + exif.size(), static_cast<std::uint32_t>(crc32(crc32(0L, nullptr, 0), &chunk[4],
                                                          static_cast<uInt>(exif.size() + 4))));
  png.insert(png.begin() + kAfterHeader, chunk.begin(), chunk.end());
}

// A PNG's pHYs chunk (pixels per metre) with the density `spec` gives,
// rounded: the library's writer truncates (240 dpi, 9448.8 a metre, came
// back as 239.98). Nothing where there is no such chunk or density in inches
// or centimetres.
void round_png_density(std::vector<unsigned char>& png, const OIIO::ImageSpec& spec) {
  const std::string unit = spec.get_string_attribute("ResolutionUnit");
  const double per_metre = unit == "in" ? 1 / 0.0254 : unit == "cm" ? 100.0 : 0.0;
  const double x = double{spec.get_float_attribute("XResolution", 0.0F)} * per_metre;
  const double y = double{spec.get_float_attribute("YResolution", 0.0F)} * per_metre;
  if (!(x >= 1 && x < 4e9) || !(y >= 1 && y < 4e9)) return;
  ByteSource bytes{std::span<const unsigned char>(png)};
  PngChunks chunks(bytes);
  while (const std::optional<PngChunk> chunk = chunks.next()) {
    if (chunk->is("IDAT") || chunk->end() > png.size()) return;
    const auto at = static_cast<std::size_t>(chunk->at);
    const auto length = static_cast<std::size_t>(chunk->length);
    if (chunk->is("pHYs") && length == 9 && png[at + 16] == 1) {
      for (std::size_t k = 0; k < 2; ++k) {
        const auto v = static_cast<std::uint32_t>(std::lround(k == 0 ? x : y));
        for (std::size_t i = 0; i < 4; ++i) {
          png[at + 8 + 4 * k + i] = static_cast<unsigned char>(v >> (24 - 8 * i));
        }
      }
      const auto crc = static_cast<std::uint32_t>(
          crc32(crc32(0L, nullptr, 0), &png[at + 4], static_cast<uInt>(length + 4)));
      for (std::size_t i = 0; i < 4; ++i) {
        png[at + 8 + length + i] = static_cast<unsigned char>(crc >> (24 - 8 * i));
      }
      return;
    }
  }
}

// A PNG's Exif and GPS fields (with its orientation) as the TIFF-format Exif of
// an eXIf chunk, taken out of `spec`: OpenImageIO 2.4's PNG writer writes
// those that are text as tEXt chunks and the rest not at all. Empty where
// `spec` has none.
std::vector<unsigned char> take_png_exif(OIIO::ImageSpec& spec) {
  const auto is_field = [](const OIIO::ParamValue& p) { return is_exif_field(p.name().string()); };
  if (std::none_of(spec.extra_attribs.begin(), spec.extra_attribs.end(), is_field)) return {};
  // Those fields and the orientation alone: the rest (camera, software,
  // captions) the writer writes as text chunks, not twice.
  OIIO::ImageSpec fields(spec.width, spec.height, spec.nchannels, spec.format);
  for (const OIIO::ParamValue& p : spec.extra_attribs) {
    if (is_field(p) || p.name() == "Orientation") fields.extra_attribs.push_back(p);
  }
  std::vector<char> blob;
  OIIO::encode_exif(fields, blob, OIIO::endian::big);
  spec.extra_attribs.erase(
      std::remove_if(spec.extra_attribs.begin(), spec.extra_attribs.end(), is_field),
      spec.extra_attribs.end());
  return {blob.begin(), blob.end()};
}

// A grey image as RGB of three equal samples a pixel, for a writer that
// takes colour alone: the same picture.
std::vector<std::byte> grey_as_rgb(const ImageView& image) {
  const std::size_t sample = image.format.sample == SampleType::U8 ? 1 : 2;
  std::vector<std::byte> rgb(std::size_t{image.width} * image.height * 3 * sample);
  std::byte* to = rgb.data();
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::byte* from = image.row(y);
    for (std::uint32_t x = 0; x < image.width; ++x, from += sample) {
      for (int c = 0; c < 3; ++c, to += sample) std::memcpy(to, from, sample);
    }
  }
  return rgb;
}

// `picture` as a lossless WebP in `bytes`.
io::Encoded encode_lossless_webp(const Picture& picture, std::vector<unsigned char>& bytes) {
  if (picture.width > WEBP_MAX_DIMENSION || picture.height > WEBP_MAX_DIMENSION) {
    return {false,
            "a WebP image is at most " + std::to_string(WEBP_MAX_DIMENSION) + " pixels a side",
            {}};
  }
  std::vector<std::uint8_t> rgb(std::size_t{picture.width} * picture.height * 3);
  for (std::size_t i = 0; i < rgb.size() / 3; ++i) {
    std::copy_n(&picture.rgba[4 * i], 3, &rgb[3 * i]);
  }
  std::uint8_t* out = nullptr;
  const std::size_t size = WebPEncodeLosslessRGB(rgb.data(), static_cast<int>(picture.width),
                                                 static_cast<int>(picture.height),
                                                 static_cast<int>(picture.width * 3), &out);
  if (size == 0 || out == nullptr) return {false, "the WebP encoder failed", {}};
  bytes.assign(out, out + size);
  WebPFree(out);
  return {true, {}, {}};
}

// An RGBA image as a lossy WebP at `quality` in `bytes`, by libwebp with the
// settings OpenImageIO 2.4's writer uses (method 6): that writer takes every
// colour for one premultiplied by its alpha and divides it by the alpha
// first, which turned a half-transparent (100, 150, 200) into (138, 205, 255).
// The colours under fully transparent pixels are kept too. 16-bit samples are
// rounded to 8 bits.
io::Encoded encode_webp_rgba(const ImageView& image, int quality,
                             std::vector<unsigned char>& bytes) {
  if (image.width > WEBP_MAX_DIMENSION || image.height > WEBP_MAX_DIMENSION) {
    return {false,
            "a WebP image is at most " + std::to_string(WEBP_MAX_DIMENSION) + " pixels a side",
            {}};
  }
  const bool deep = image.format.sample == SampleType::U16;
  std::vector<std::uint8_t> rgba(std::size_t{image.width} * image.height * 4);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    std::uint8_t* to = rgba.data() + std::size_t{y} * image.width * 4;
    if (!deep) {
      std::memcpy(to, image.row(y), std::size_t{image.width} * 4);
      continue;
    }
    for (std::size_t i = 0; i < std::size_t{image.width} * 4; ++i) {
      std::uint16_t v = 0;
      std::memcpy(&v, image.row(y) + 2 * i, 2);
      to[i] = nearest_eight_bit(v);
    }
  }
  WebPConfig config;
  WebPPicture picture;
  if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
    return {false, "the WebP encoder failed to start", {}};
  }
  config.method = 6;
  config.quality = static_cast<float>(std::clamp(quality, 1, 100));
  config.exact = 1;
  picture.width = static_cast<int>(image.width);
  picture.height = static_cast<int>(image.height);
  WebPMemoryWriter memory;
  WebPMemoryWriterInit(&memory);
  picture.writer = WebPMemoryWrite;
  picture.custom_ptr = &memory;
  const bool encoded =
      WebPPictureImportRGBA(&picture, rgba.data(), static_cast<int>(image.width * 4)) != 0 &&
      WebPEncode(&config, &picture) != 0;
  WebPPictureFree(&picture);
  if (encoded) bytes.assign(memory.mem, memory.mem + memory.size);
  WebPMemoryWriterClear(&memory);
  if (!encoded) return {false, "the WebP encoder failed", {}};
  return {true,
          {},
          deep ? "a WebP file holds 8-bit samples: the 16-bit samples are scaled to 8 bits" : ""};
}

}  // namespace

std::string image_write_refusal(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  if (extension.empty()) return "no extension names an image format";
  // The library's writers are chosen by extension; a format it only reads has none.
  const std::unique_ptr<OIIO::ImageOutput> writer = OIIO::ImageOutput::create(path.string());
  (void)OIIO::geterror();  // a refusal's message is not for a later call
  // Writers of no picture file (null, term: the terminal), of depth (zfile),
  // and of wrong ones: OpenImageIO 2.4's JPEG 2000 writer writes 77 bytes
  // that no reader decodes, its FITS writer 16-bit samples as signed halves.
  if (writer != nullptr) {
    for (const char* unwritten : {"null", "term", "zfile", "jpeg2000", "fits"}) {
      if (std::strcmp(writer->format_name(), unwritten) == 0) {
        return "images are not written to '" + extension +
               "' files (the image library's writer of them writes no whole picture)";
      }
    }
  }
  // A .pbm file holds one bit a pixel, which the library's PNM writer does
  // not write (it writes 8-bit grey under that name).
  if (named(path, ".pbm")) {
    return "a '" + extension + "' file holds a bit a pixel, which is not written";
  }
  const bool read = images::has_image_extension(path, FormatSet::All);
  if (!read || writer == nullptr) {
    return read ? "images are read from '" + extension + "' files but cannot be written to them"
                : "'" + extension + "' is not the extension of an image format";
  }
  return {};
}

io::Encoded encode_image(const std::filesystem::path& target, const std::filesystem::path& file,
                         const ImageView& given, const std::filesystem::path& metadata_from,
                         int quality, std::vector<unsigned char>& bytes) {
  auto writer = OIIO::ImageOutput::create(target.string());
  // (Said now: reading the metadata source may take the library's error.)
  if (!writer) return {false, message(OIIO::geterror()), {}};
  // The PNM writer writes colour as PPM whatever the name: a .pgm file holds grey.
  if (named(target, ".pgm") && given.format.layout != ChannelLayout::Grey) {
    return {false, "a .pgm file holds grey images (.ppm holds colour)", {}};
  }
  ImageView image = given;
  std::vector<std::byte> rgb;
  const std::string format = writer->format_name();
  if (image.format.layout == ChannelLayout::Grey && !takes_grey(*writer)) {
    rgb = grey_as_rgb(image);
    image = ImageView::packed(rgb.data(), image.width, image.height,
                              {ChannelLayout::RGB, image.format.sample});
  }
  const OIIO::TypeDesc type =
      image.format.sample == SampleType::U8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::UINT16;
  const int channels = static_cast<int>(channel_count(image.format.layout));
  OIIO::ImageSpec spec(static_cast<int>(image.width), static_cast<int>(image.height), channels,
                       type);
  SourceMetadata source;
  if (!metadata_from.empty()) source = add_metadata_of(metadata_from, format, spec);
  const std::vector<unsigned char> png_exif =
      format == "png" ? take_png_exif(spec) : std::vector<unsigned char>{};
  if (image.format.layout == ChannelLayout::RGBA) {
    spec.alpha_channel = 3;
    spec.attribute("oiio:UnassociatedAlpha", 1);  // the samples are written as they are
  }
  // JPEG and WebP at the quality asked for (the JPEG writer's own default is 98).
  if (format == "jpeg") spec.attribute("Compression", "jpeg:" + std::to_string(quality));
  if (format == "jpeg" || format == "webp") spec.attribute("CompressionQuality", quality);
  // HEIF and AVIF too (the writer's own default is 75; at 100 it codes losslessly).
  if (format == "heif") {
    spec.attribute("Compression",
                   (named(target, ".avif") ? "avif:" : "heic:") + std::to_string(quality));
  }
  // The TIFF writer writes IPTC fields (captions, keywords) only when asked.
  if (format == "tiff") spec.attribute("tiff:write_iptc", 1);
  const auto pixel = static_cast<OIIO::stride_t>(pixel_bytes(image.format));
  const auto write_pixels = [&](OIIO::ImageOutput& out) {
    return out.write_image(type, image.data, pixel, static_cast<OIIO::stride_t>(image.stride));
  };
  // 16-bit PNM samples written as stored (io/images/pnm_samples.hpp): the
  // library's writer writes them 8 bits deep.
  const bool deep_pnm = format == "pnm" && image.format.sample == SampleType::U16;
  io::Encoded encoded;
  if (deep_pnm) {
    bytes = deep_pnm_file(image);
    encoded = {true,
               {},
               image.format.layout == ChannelLayout::RGBA
                   ? "a PNM file holds no alpha: the alpha is left out"
                   : ""};
  } else if (format == "webp" && image.format.layout == ChannelLayout::RGBA) {
    encoded = encode_webp_rgba(image, quality, bytes);
  } else {
    encoded = encode(std::move(writer), target, file, spec, bytes, write_pixels);
  }
  // A profile the writer refuses (libpng checks a profile's header against the
  // picture): the picture written without it, and said.
  std::string profile_note;
  const auto about_profile = [](const std::string& error) {
    return error.find("ICC") != std::string::npos || error.find("iCCP") != std::string::npos ||
           error.find("profile") != std::string::npos;
  };
  if (!encoded.error.empty() && spec.find_attribute("ICCProfile") != nullptr &&
      about_profile(encoded.error)) {
    spec.erase_attribute("ICCProfile");
    bytes.clear();
    encoded =
        encode(OIIO::ImageOutput::create(target.string()), target, file, spec, bytes, write_pixels);
    profile_note = "the source's colour profile, which the writer refused, is not written";
  }
  encoded.unsound_profile = !source.sound;
  if (!encoded.error.empty()) return encoded;
  const auto say = [&](const std::string& note) {
    if (!note.empty()) encoded.left_out += (encoded.left_out.empty() ? "" : "; ") + note;
  };
  const int orientation = spec.get_int_attribute("Orientation", 1);
  const OIIO::ParamValue* profile = spec.find_attribute("ICCProfile");
  if (encoded.in_memory) {
    if (format == "png") round_png_density(bytes, spec);
    if (!png_exif.empty()) add_png_exif(bytes, png_exif);
    if (orientation != 1) add_png_exif(bytes, orientation_exif(orientation));
    if (format == "webp") {
      add_webp_metadata(bytes, orientation,
                        profile != nullptr
                            ? std::span(static_cast<const unsigned char*>(profile->data()),
                                        profile->type().size())
                            : std::span<const unsigned char>());
    }
    if (format == "gif") say(gif_palette_note(bytes, image, encoded.left_out.empty()));
  }
  // The formats that hold an orientation and a profile (WebP by the chunks written
  // here); every other holds neither.
  const bool holds_none = format != "tiff" && format != "png" && format != "jpeg" &&
                          format != "openexr" && format != "webp";
  if (holds_none && (orientation != 1 || profile != nullptr)) {
    const std::string turned = "orientation (" + std::to_string(orientation) + ")";
    say(orientation == 1 ? "the file holds no colour profile: the source's colour profile is "
                           "not written"
        : profile == nullptr
            ? "the file holds no orientation: the source's " + turned + " is not written"
            : "the file holds no orientation or colour profile: the source's " + turned +
                  " and colour profile are not written");
  }
  // The OpenEXR writer (OpenImageIO 2.4's) writes an orientation, and no profile.
  if (format == "openexr" && profile != nullptr) {
    say("the file holds no colour profile: the source's colour profile is not written");
  }
  // A WebP takes an orientation and a profile alone (its chunks, written here); those
  // formats none of the picture's metadata: what a camera or a person wrote of it is said.
  const bool not_kept =
      source.not_kept ||
      ((format == "webp" || holds_none) &&
       std::any_of(spec.extra_attribs.begin(), spec.extra_attribs.end(),
                   [](const OIIO::ParamValue& p) {
                     const std::string name = p.name().string();
                     for (const char* prefix :
                          {"Exif:", "GPS:", "IPTC:", "XMP", "Make", "Model", "ImageDescription",
                           "Artist", "Copyright", "Software", "Keywords", "ExposureTime",
                           "FNumber"}) {
                       if (name.rfind(prefix, 0) == 0) return describes_the_picture(p, true);
                     }
                     return false;
                   }));
  say(profile_note);
  if (source.damaged_profile) say("the source's colour profile is damaged, and is not written");
  if (!source.unwritten.empty() && !holds_none && format != "webp") {
    say("the source's " + source.unwritten + (source.unwritten == "XMP packet" ? " is" : " are") +
        " not written");
  }
  // A JPEG or WebP source's Exif fields, XMP and IPTC go to a JPEG from a JPEG alone.
  if (not_kept) {
    say(holds_none ? "the source's other metadata (camera and Exif fields, XMP, IPTC, "
                     "captions) is not written"
                   : std::string("the source's metadata other than its orientation") +
                         (format == "webp" ? " and colour profile"
                                           : ", colour profile and pixel density") +
                         " (camera and Exif fields, XMP, IPTC, captions) is not written");
  }
  return encoded;
}

io::Encoded encode_picture(const std::filesystem::path& target, const std::filesystem::path& file,
                           const Picture& picture, std::vector<unsigned char>& bytes) {
  // The PNM writer writes colour as PPM whatever the name: a .pgm file holds grey.
  if (named(target, ".pgm"))
    return {false, "a .pgm file holds grey images (.ppm holds colour)", {}};
  OIIO::ImageSpec spec(static_cast<int>(picture.width), static_cast<int>(picture.height), 3,
                       OIIO::TypeDesc::UINT8);
  auto writer = OIIO::ImageOutput::create(target.string());
  // Bars of flat colour: a JPEG's chroma whole (4:2:0 smears their edges), at
  // quality 100. (A TIFF writer told "jpeg" would compress with it too.)
  if (writer && std::string_view(writer->format_name()) == "jpeg") {
    spec.attribute("jpeg:subsampling", "4:4:4");
    spec.attribute("Compression", "jpeg:100");
  }
  if (writer && (std::string_view(writer->format_name()) == "jpeg" ||
                 std::string_view(writer->format_name()) == "webp")) {
    spec.attribute("CompressionQuality", 100);
  }
  // A WebP picture lossless, by libwebp: OpenImageIO 2.4's writer is lossy,
  // and told "lossless" it halves the chroma first all the same.
  if (writer && std::string_view(writer->format_name()) == "webp") {
    return encode_lossless_webp(picture, bytes);
  }
  // RGBA in memory, RGB in the file: a 4-byte step between pixels.
  return encode(std::move(writer), target, file, spec, bytes, [&](OIIO::ImageOutput& out) {
    return out.write_image(OIIO::TypeDesc::UINT8, picture.rgba.data(), 4);
  });
}

}  // namespace gpuhist::images
