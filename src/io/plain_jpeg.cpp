#include "io/plain_jpeg.hpp"

// jpeglib.h needs FILE and size_t declared before it.
#include <jpeglib.h>
#include <cstddef>
#include <cstdio>

#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "io/file_extension.hpp"
#include "io/images/jpeg_decoder.hpp"
#include "io/jpeg_segments.hpp"
#include "io/kept_metadata.hpp"
#include "io/whole_file.hpp"

namespace gpuhist::io {
namespace {

// A check the module makes refused the file: the module says it.
struct LeftToTheModule {};

// libjpeg's error manager (first, as libjpeg hands its callbacks a pointer to
// it) and where its errors end the write.
struct WriteErrors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
};

[[noreturn]] void stop_writing(j_common_ptr info) {
  std::longjmp(reinterpret_cast<WriteErrors*>(info->err)->jump, 1);
}
void say_nothing(j_common_ptr /*info*/, int /*level*/) {}

// The luma's and chroma's sampling factors the module's writer (OpenImageIO
// 2.4's) is given for a source of `subsampling`: a 4:4:0 source's chroma is
// kept whole; any other is libjpeg's 4:2:0.
std::pair<int, int> luma_factors(const std::string& subsampling) {
  if (subsampling == "4:4:4" || subsampling == "4:4:0") return {1, 1};
  if (subsampling == "4:2:2") return {2, 1};
  if (subsampling == "4:1:1") return {4, 1};
  return {2, 2};
}

// libjpeg's compressor, destroyed with its output buffer (libjpeg's own).
struct Compressor {
  jpeg_compress_struct info{};
  WriteErrors errors{};
  unsigned char* out = nullptr;
  unsigned long out_size = 0;  // NOLINT(google-runtime-int): libjpeg's type
  Compressor() {
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = stop_writing;
    errors.manager.emit_message = say_nothing;
  }
  ~Compressor() {
    jpeg_destroy_compress(&info);
    std::free(out);  // NOLINT(cppcoreguidelines-no-malloc): jpeg_mem_dest's
  }
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;
};

// The module's writer's settings: a JFIF header with no density (the
// source's takes its place), the quality's tables, the sampling factors,
// libjpeg's defaults for the rest (baseline, its own Huffman tables). The
// rows in `rows`; false where libjpeg fails.
bool compress(Compressor& c, const ImageView& image, int quality, std::pair<int, int> factors,
              JSAMPROW* rows) {
  if (setjmp(c.errors.jump) != 0) return false;  // NOLINT(cert-err52-cpp): libjpeg's way
  jpeg_create_compress(&c.info);
  jpeg_mem_dest(&c.info, &c.out, &c.out_size);
  c.info.image_width = image.width;
  c.info.image_height = image.height;
  const bool colour = image.format.layout == ChannelLayout::RGB;
  c.info.input_components = colour ? 3 : 1;
  c.info.in_color_space = colour ? JCS_RGB : JCS_GRAYSCALE;
  jpeg_set_defaults(&c.info);
  c.info.write_JFIF_header = TRUE;
  c.info.density_unit = 0;
  c.info.X_density = 1;
  c.info.Y_density = 1;
  jpeg_set_quality(&c.info, quality, TRUE);
  if (colour) {
    c.info.comp_info[0].h_samp_factor = factors.first;
    c.info.comp_info[0].v_samp_factor = factors.second;
    for (int k = 1; k < 3; ++k) {
      c.info.comp_info[k].h_samp_factor = 1;
      c.info.comp_info[k].v_samp_factor = 1;
    }
  }
  jpeg_start_compress(&c.info, TRUE);
  while (c.info.next_scanline < c.info.image_height) {
    (void)jpeg_write_scanlines(&c.info, rows + c.info.next_scanline,
                               c.info.image_height - c.info.next_scanline);
  }
  jpeg_finish_compress(&c.info);
  return true;
}

}  // namespace

bool encode_plain_jpeg(const ImageView& image, std::span<const unsigned char> metadata_source,
                       int quality, std::vector<unsigned char>& bytes) {
  const bool colour = image.format.layout == ChannelLayout::RGB;
  if (image.format.sample != SampleType::U8 ||
      (!colour && image.format.layout != ChannelLayout::Grey) || image.width == 0 ||
      image.height == 0 || image.width > JPEG_MAX_DIMENSION || image.height > JPEG_MAX_DIMENSION ||
      image.data == nullptr || quality < 1 || quality > 100 ||
      !jpeg_metadata_replaced(metadata_source, colour)) {
    return false;
  }
  try {
    std::vector<JSAMPROW> rows(image.height);
    for (std::uint32_t y = 0; y < image.height; ++y) {
      rows[y] = reinterpret_cast<JSAMPROW>(const_cast<std::byte*>(image.row(y)));
    }
    const std::pair<int, int> factors = luma_factors(jpeg_subsampling(metadata_source));
    Compressor compressor;
    if (!compress(compressor, image, quality, factors, rows.data())) return false;
    bytes.assign(compressor.out, compressor.out + compressor.out_size);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool jpeg_extension(const std::filesystem::path& path) {
  const std::string extension = lower_extension(path);
  return extension == "jpg" || extension == "jpeg";
}

std::optional<Image> read_plain_jpeg(const std::filesystem::path& path,
                                     const LoadOptions& options) {
  static constexpr unsigned char kSignature[] = {0xFF, 0xD8, 0xFF};
  ThreadFileBuffer buffer;
  try {
    const std::span<const unsigned char> bytes = buffer.read(path, kSignature);
    if (bytes.empty()) return std::nullopt;
    // The module's limits: pixels, and samples as stored (16 bytes a pixel).
    return images::decode_jpeg(bytes, path, [&](const images::JpegShape& shape) {
      const std::uint64_t pixels = std::uint64_t{shape.width} * shape.height;
      if (pixels > options.max_pixels ||
          pixels * static_cast<std::uint64_t>(shape.channels) / 16 > options.max_pixels) {
        throw LeftToTheModule{};
      }
    });
  } catch (const LeftToTheModule&) {
    return std::nullopt;
  } catch (const std::exception&) {
    // Damaged, truncated or too large for memory: said by the module.
    return std::nullopt;
  }
}

}  // namespace gpuhist::io
