#include "io/plain_png.hpp"

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/file_extension.hpp"
#include "io/file_signature.hpp"
#include "io/images/byte_order.hpp"
#include "io/images/byte_source.hpp"
#include "io/images/png_chunks.hpp"
#include "io/whole_file.hpp"

namespace gpuhist::io {
namespace {

// Chunks that leave a PNG's pixels as libpng decodes them and tell the module
// nothing it gives with them: the image's own, colour, density and timing
// information, an offset within the coordinates the module reads (OpenImageIO
// writes one into every PNG), and text other than the keys under which the
// module finds an orientation. Any other (eXIf, an animation's, a private
// one) leaves the file to the module.
constexpr char kPlainChunks[][5] = {"IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM",
                                    "sRGB", "iCCP", "sBIT", "bKGD", "hIST", "pHYs", "sPLT",
                                    "tIME", "oFFs", "tEXt", "zTXt", "iTXt"};
constexpr std::string_view kOrientationKeys[] = {"Raw profile type exif", "XML:com.adobe.xmp",
                                                 "Orientation"};
// The largest offset left here: with libpng's most rows or columns (a
// million), the module's coordinates stay within an int.
constexpr std::uint32_t kMostOffset = std::uint32_t{1} << 30;

// ASCII letters' case ignored, as the module's reader compares keys (in
// every locale).
bool equal_ignoring_case(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// A text chunk's keyword (at most 79 bytes, ended by a NUL).
std::string keyword(images::ByteSource& file, const images::PngChunk& chunk) {
  std::vector<unsigned char> bytes;
  if (!file.read(chunk.data_at(),
                 static_cast<std::size_t>(std::min<std::uint64_t>(chunk.length, 80)), bytes)) {
    return {};
  }
  std::string key(bytes.begin(), bytes.end());
  return key.substr(0, key.find('\0'));
}

// Whether `chunk` lies in the file and is one of the plain ones: of a plain
// type, and for text, under a key other than those that carry an orientation.
bool plain_chunk(images::ByteSource& file, const images::PngChunk& chunk) {
  if (chunk.length > images::PngChunk::kMostLength || chunk.end() > file.size()) return false;
  bool plain = false;
  for (const auto& name : kPlainChunks) plain = plain || chunk.is(name);
  if (!plain) return false;
  if (chunk.is("tEXt") || chunk.is("zTXt") || chunk.is("iTXt")) {
    const std::string key = keyword(file, chunk);
    for (const std::string_view orientation : kOrientationKeys) {
      if (equal_ignoring_case(key, orientation)) return false;
    }
  }
  return true;
}

// What the module's limits allow: `pixels` of `stored` bytes as decoded
// (every channel), from a file of `file_bytes` (deflate's bytes hold at most
// 131072 times theirs, with room to spare).
bool within_limits(std::uint64_t pixels, std::uint64_t stored, std::uint64_t file_bytes,
                   const LoadOptions& options) {
  return pixels <= options.max_pixels && stored / 16 <= options.max_pixels &&
         stored <= file_bytes * 131072 + (std::uint64_t{1} << 20);
}

// Whether every chunk of the PNG in `file` up to IEND lies in the file and is
// one of the plain ones, and its header is within the limits (counting a tRNS
// chunk as alpha, as libpng does where it holds). Read by the chunks' headers
// before the file is read whole: a file left to the module is not.
bool plain_chunks(images::ByteSource& file, const LoadOptions& options) {
  images::PngChunks chunks(file);
  std::array<unsigned char, 13> header{};
  bool transparency = false;
  while (const std::optional<images::PngChunk> chunk = chunks.next()) {
    if (!plain_chunk(file, *chunk)) return false;
    if (chunk->at == 8) {  // IHDR, first
      if (!chunk->is("IHDR") || chunk->length != header.size() ||
          !file.read(chunk->data_at(), header.size(), header.data())) {
        return false;
      }
    }
    transparency = transparency || chunk->is("tRNS");
    if (chunk->is("oFFs")) {
      // x and y (signed 32-bit), then the unit.
      std::array<unsigned char, 8> offsets{};
      if (chunk->length != 9 || !file.read(chunk->data_at(), offsets.size(), offsets.data()) ||
          images::big32(offsets.data()) >= kMostOffset ||
          images::big32(offsets.data() + 4) >= kMostOffset) {
        return false;
      }
    }
    if (chunk->is("IEND")) {
      const std::uint64_t pixels =
          std::uint64_t{images::big32(header.data())} * images::big32(header.data() + 4);
      const unsigned colour_type = header[9];
      const std::uint64_t channels = ((colour_type & PNG_COLOR_MASK_COLOR) != 0 ? 3U : 1U) +
                                     ((colour_type & PNG_COLOR_MASK_ALPHA) != 0 || transparency);
      return within_limits(pixels, pixels * channels * (header[8] == 16 ? 2U : 1U), file.size(),
                           options);
    }
  }
  return false;  // no signature, or cut short before IEND
}

// libpng's errors end the read here (a longjmp to the setjmp of the function
// that called it); its warnings are not heard, as the module hears none.
[[noreturn]] void give_up(png_structp png, png_const_charp /*message*/) { png_longjmp(png, 1); }
void ignore_warning(png_structp /*png*/, png_const_charp /*message*/) {}

struct Cursor {
  const unsigned char* at;
  std::size_t left;
};

void read_bytes(png_structp png, png_bytep out, std::size_t n) {
  auto* cursor = static_cast<Cursor*>(png_get_io_ptr(png));
  if (n > cursor->left) png_error(png, "the file ends early");
  std::memcpy(out, cursor->at, n);
  cursor->at += n;
  cursor->left -= n;
}

struct Shape {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int color_type = 0;
  bool transparency = false;  // a tRNS chunk, which png_set_expand makes alpha
};

// The functions that call libpng, each with its own setjmp and nothing in
// its frame that a longjmp out of it would leave undestroyed.
bool read_shape(png_structp png, png_infop info, Shape& shape) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp): libpng's way
  png_read_info(png, info);
  png_get_IHDR(png, info, &shape.width, &shape.height, &shape.bit_depth, &shape.color_type, nullptr,
               nullptr, nullptr);
  shape.transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  return true;
}

// The module's reader's transformations (png_set_expand, samples in the
// host's order), and alpha left out where it is not read.
bool start_rows(png_structp png, png_infop info, bool strip_alpha) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp)
  png_set_expand(png);
  if constexpr (std::endian::native == std::endian::little) png_set_swap(png);
  if (strip_alpha) png_set_strip_alpha(png);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  return true;
}

bool read_rows(png_structp png, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp)
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  return true;
}

void append_bytes(png_structp png, png_bytep data, std::size_t n) {
  auto* out = static_cast<std::vector<unsigned char>*>(png_get_io_ptr(png));
  bool appended = false;
  try {
    out->insert(out->end(), data, data + n);
    appended = true;
  } catch (...) {
    // (No exception crosses libpng's frames: its error ends the write.)
  }
  if (!appended) png_error(png, "out of memory");
}

void flush_nothing(png_structp /*png*/) {}

// How the module's writer (OpenImageIO 2.4's) compresses: zlib level 6, its
// default strategy (libpng's own is Z_FILTERED), and libpng's adaptive
// filters, which Debian's build of it uses (the tests compare the bytes).
void compress_as_the_module(png_structp png) {
  png_set_compression_level(png, 6);
  png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
}

bool write_rows(png_structp png, png_infop info, const Picture& picture, png_bytepp rows,
                std::vector<unsigned char>& out) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp)
  png_set_write_fn(png, &out, append_bytes, flush_nothing);
  png_set_IHDR(png, info, picture.width, picture.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  compress_as_the_module(png);
  png_write_info(png, info);
  png_set_filler(png, 0, PNG_FILLER_AFTER);  // RGBA in memory, RGB in the file
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

// `image`'s rows as the module's writer writes them: an offset chunk of (0,
// 0) pixels, `time` where there is one, then the pixels.
bool write_image_rows(png_structp png, png_infop info, const ImageView& image,
                      const std::optional<png_time>& time, png_bytepp rows,
                      std::vector<unsigned char>& out) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp)
  png_set_write_fn(png, &out, append_bytes, flush_nothing);
  const int colour_type = image.format.layout == ChannelLayout::Grey  ? PNG_COLOR_TYPE_GRAY
                          : image.format.layout == ChannelLayout::RGB ? PNG_COLOR_TYPE_RGB
                                                                      : PNG_COLOR_TYPE_RGBA;
  const bool deep = image.format.sample == SampleType::U16;
  png_set_IHDR(png, info, image.width, image.height, deep ? 16 : 8, colour_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  compress_as_the_module(png);
  png_set_oFFs(png, info, 0, 0, PNG_OFFSET_PIXEL);
  if (time) {
    png_time copy = *time;
    png_set_tIME(png, info, &copy);
  }
  png_write_info(png, info);
  if (deep && std::endian::native == std::endian::little) png_set_swap(png);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

// The source's modification time as the module's reader gives it (libpng's
// tIME, read with the chunks before the pixels), and whether any text there
// is under a key the module reads as a time; false where libpng refuses the
// file before its pixels.
bool read_time(png_structp png, png_infop info, std::optional<png_time>& time, bool& time_text) {
  if (setjmp(png_jmpbuf(png))) return false;  // NOLINT(cert-err52-cpp)
  png_read_info(png, info);
  png_timep stamp = nullptr;
  if (png_get_tIME(png, info, &stamp) != 0 && stamp != nullptr) time = *stamp;
  png_textp text = nullptr;
  int count = 0;
  (void)png_get_text(png, info, &text, &count);
  for (int i = 0; i < count && text != nullptr; ++i) {
    time_text =
        time_text || (text[i].key != nullptr && equal_ignoring_case(text[i].key, "DateTime"));
  }
  return true;
}

// A libpng read or write structure and its information, destroyed together.
template <bool kWrite>
class PngStruct {
 public:
  PngStruct()
      : png_(kWrite ? png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, give_up,
                                              ignore_warning)
                    : png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, give_up,
                                             ignore_warning)),
        info_(png_ != nullptr ? png_create_info_struct(png_) : nullptr) {}
  ~PngStruct() {
    if (png_ == nullptr) return;
    if constexpr (kWrite) {
      png_destroy_write_struct(&png_, info_ != nullptr ? &info_ : nullptr);
    } else {
      png_destroy_read_struct(&png_, info_ != nullptr ? &info_ : nullptr, nullptr);
    }
  }
  PngStruct(const PngStruct&) = delete;
  PngStruct& operator=(const PngStruct&) = delete;

  [[nodiscard]] bool made() const noexcept { return png_ != nullptr && info_ != nullptr; }
  [[nodiscard]] png_structp png() const noexcept { return png_; }
  [[nodiscard]] png_infop info() const noexcept { return info_; }

 private:
  png_structp png_;
  png_infop info_;
};

std::optional<Image> decode(std::span<const unsigned char> bytes, const LoadOptions& options) {
  PngStruct<false> read;
  if (!read.made()) return std::nullopt;
  Cursor cursor{bytes.data(), bytes.size()};
  png_set_read_fn(read.png(), &cursor, read_bytes);
  Shape shape;
  if (!read_shape(read.png(), read.info(), shape)) return std::nullopt;

  // What png_set_expand gives: grey or RGB (a palette's colours), alpha from
  // an alpha channel or a tRNS chunk, 8 bits (from 1, 2 and 4) or 16.
  const bool colour = (shape.color_type & PNG_COLOR_MASK_COLOR) != 0;
  const bool alpha = (shape.color_type & PNG_COLOR_MASK_ALPHA) != 0 || shape.transparency;
  const std::uint64_t channels = (colour ? 3U : 1U) + (alpha ? 1U : 0U);
  const std::uint64_t sample_bytes = shape.bit_depth == 16 ? 2 : 1;
  // The module's limits, as libpng reads the header.
  const std::uint64_t pixels = std::uint64_t{shape.width} * shape.height;
  if (!within_limits(pixels, pixels * channels * sample_bytes, bytes.size(), options)) {
    return std::nullopt;
  }
  const ChannelLayout layout = !colour                  ? ChannelLayout::Grey
                               : alpha && options.alpha ? ChannelLayout::RGBA
                                                        : ChannelLayout::RGB;
  const bool strip_alpha = alpha && layout != ChannelLayout::RGBA;
  if (!start_rows(read.png(), read.info(), strip_alpha)) return std::nullopt;
  const PixelFormat format{layout, sample_bytes == 2 ? SampleType::U16 : SampleType::U8};
  const std::size_t row = std::size_t{shape.width} * pixel_bytes(format);
  if (png_get_rowbytes(read.png(), read.info()) != row ||
      png_get_channels(read.png(), read.info()) != channel_count(layout)) {
    return std::nullopt;
  }
  Image image = Image::allocate(shape.width, shape.height, format);
  std::vector<png_bytep> rows(shape.height);
  for (png_uint_32 y = 0; y < shape.height; ++y) {
    rows[y] = reinterpret_cast<png_bytep>(image.storage.data()) + std::size_t{y} * image.stride;
  }
  if (!read_rows(read.png(), rows.data())) return std::nullopt;
  image.codec = "png";
  image.alpha = strip_alpha;
  return image;
}

std::optional<std::optional<png_time>> plain_metadata_time(std::span<const unsigned char> source) {
  if (source.empty()) return std::optional<png_time>{};
  // Every chunk whole, plain, unharmed (a damaged one the module's reader
  // passes over is copied all the same, but may be read otherwise), and no
  // profile (the module checks one against the image before it writes it).
  images::ByteSource file(source);
  images::PngChunks chunks(file);
  bool ended = false;
  while (const std::optional<images::PngChunk> chunk = chunks.next()) {
    if (!plain_chunk(file, *chunk) || chunk->is("iCCP")) return {};
    if (chunk->at == 8 && !chunk->is("IHDR")) return {};
    const unsigned char* typed = source.data() + chunk->at + 4;
    const auto crc = static_cast<std::uint32_t>(
        crc32(crc32(0L, nullptr, 0), typed, static_cast<uInt>(chunk->length + 4)));
    if (crc != images::big32(typed + 4 + chunk->length)) return {};
    if (chunk->is("IEND")) {
      ended = true;
      break;
    }
  }
  if (!ended) return {};
  PngStruct<false> read;
  if (!read.made()) return {};
  Cursor cursor{source.data(), source.size()};
  png_set_read_fn(read.png(), &cursor, read_bytes);
  std::optional<png_time> time;
  bool time_text = false;
  if (!read_time(read.png(), read.info(), time, time_text) || time_text) return {};
  // A time the module's reader writes as "YYYY:MM:DD hh:mm:ss" and its
  // writer reads back as it was (libpng keeps none of no such month, day,
  // hour or minute; the module's writer none of a leap second). A year of
  // fewer than four digits, which the module's reader pads with spaces, is
  // left to it too.
  if (time && (time->year < 1000 || time->year > 9999 || time->second > 59)) {
    return {};
  }
  return time;
}

}  // namespace

bool encode_plain_png(const Picture& picture, std::vector<unsigned char>& bytes) {
  // PNG's largest side is 2^31 - 1.
  if (picture.width == 0 || picture.height == 0 || picture.width > 0x7FFFFFFFU ||
      picture.height > 0x7FFFFFFFU || picture.rgba.size() / 4 / picture.width < picture.height) {
    return false;
  }
  try {
    PngStruct<true> write;
    if (!write.made()) return false;
    std::vector<png_bytep> rows(picture.height);
    for (std::uint32_t y = 0; y < picture.height; ++y) {
      // (libpng copies each row before it transforms it.)
      rows[y] = const_cast<png_bytep>(picture.rgba.data()) + std::size_t{y} * picture.width * 4;
    }
    bytes.clear();
    return write_rows(write.png(), write.info(), picture, rows.data(), bytes);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool encode_plain_png(const ImageView& image, std::span<const unsigned char> metadata_source,
                      std::vector<unsigned char>& bytes) {
  if (image.format.sample == SampleType::F32 || image.width == 0 || image.height == 0 ||
      image.width > 0x7FFFFFFFU || image.height > 0x7FFFFFFFU || image.data == nullptr) {
    return false;
  }
  try {
    const std::optional<std::optional<png_time>> time = plain_metadata_time(metadata_source);
    if (!time) return false;
    PngStruct<true> write;
    if (!write.made()) return false;
    std::vector<png_bytep> rows(image.height);
    for (std::uint32_t y = 0; y < image.height; ++y) {
      // (libpng copies each row before it transforms it.)
      rows[y] = reinterpret_cast<png_bytep>(const_cast<std::byte*>(image.row(y)));
    }
    bytes.clear();
    return write_image_rows(write.png(), write.info(), image, *time, rows.data(), bytes);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool png_extension(const std::filesystem::path& path) { return lower_extension(path) == "png"; }

std::optional<Image> read_plain_png(const std::filesystem::path& path, const LoadOptions& options) {
  try {
    // (A pipe is not opened: it would wait for a writer, or be read once.)
    if (!readable_regular_file(path)) return std::nullopt;
    {
      images::ByteSource file(path);
      if (!plain_chunks(file, options)) return std::nullopt;
    }
    ThreadFileBuffer buffer;
    const std::span<const unsigned char> bytes = buffer.read(path, kPngSignature);
    if (bytes.empty()) return std::nullopt;
    return decode(bytes, options);
  } catch (const std::exception&) {
    // Too large for memory: said by the module.
    return std::nullopt;
  }
}

}  // namespace gpuhist::io
