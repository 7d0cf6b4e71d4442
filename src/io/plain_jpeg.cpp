#include "io/plain_jpeg.hpp"

// jpeglib.h needs FILE and size_t declared before it.
#include <cstddef>
#include <cstdio>

#include <jerror.h>
#include <jpeglib.h>

#include <csetjmp>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "io/file_extension.hpp"
#include "io/file_signature.hpp"
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

// Where libjpeg writes: a vector, grown a block at a time (libjpeg's own
// memory destination frees the buffers it outgrows behind the pointer it
// hands back, which an error would leave pointing at freed memory).
struct VectorDestination {
  jpeg_destination_mgr manager{};  // first: libjpeg hands back a pointer to it
  std::vector<unsigned char>* out = nullptr;
};

constexpr std::size_t kBlock = 65536;

VectorDestination& destination_of(j_compress_ptr info) {
  return *reinterpret_cast<VectorDestination*>(info->dest);
}

// Room for a block after the `used` bytes; out of memory is libjpeg's error.
void give_room(j_compress_ptr info, std::size_t used) {
  VectorDestination& d = destination_of(info);
  bool grown = false;
  try {
    d.out->resize(used + kBlock);
    grown = true;
  } catch (...) {
    // (No exception crosses libjpeg's frames: its error ends the write.)
  }
  if (!grown) {
    info->err->msg_code = JERR_OUT_OF_MEMORY;
    info->err->error_exit(reinterpret_cast<j_common_ptr>(info));
  }
  d.manager.next_output_byte = d.out->data() + used;
  d.manager.free_in_buffer = kBlock;
}

void start_output(j_compress_ptr info) { give_room(info, 0); }
boolean full_output(j_compress_ptr info) {
  give_room(info, destination_of(info).out->size());  // (the whole vector is written)
  return TRUE;
}
void end_output(j_compress_ptr info) {
  VectorDestination& d = destination_of(info);
  d.out->resize(d.out->size() - d.manager.free_in_buffer);
}

// libjpeg's compressor, destroyed with it.
struct Compressor {
  jpeg_compress_struct info{};
  WriteErrors errors{};
  VectorDestination destination;
  explicit Compressor(std::vector<unsigned char>& out) {
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = stop_writing;
    errors.manager.emit_message = say_nothing;
    destination.manager.init_destination = start_output;
    destination.manager.empty_output_buffer = full_output;
    destination.manager.term_destination = end_output;
    destination.out = &out;
  }
  ~Compressor() { jpeg_destroy_compress(&info); }
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
  c.info.dest = &c.destination.manager;
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
    bytes.clear();
    Compressor compressor(bytes);
    return compress(compressor, image, quality, factors, rows.data());
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
  ThreadFileBuffer buffer;
  try {
    const std::span<const unsigned char> bytes = buffer.read(path, kJpegSignature);
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
