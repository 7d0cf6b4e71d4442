#include "io/images/jpeg_decoder.hpp"

// jpeglib.h needs FILE and size_t declared before it.
// clang-format off
#include <cstdio>
#include <jpeglib.h>
#include <jerror.h>
// clang-format on

#include <algorithm>
#include <array>
#include <csetjmp>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuhist/error.hpp"
#include "io/images/cmyk_rgb.hpp"
#include "io/images/tiff_layout.hpp"

namespace gpuhist::images {
namespace {

constexpr int kMostScans = 1000;

// libjpeg's error manager, and where its errors and damaging warnings go:
// `manager` first, as libjpeg hands the callbacks a pointer to it.
struct Errors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  int code;
  char message[JMSG_LENGTH_MAX];
  char warning[JMSG_LENGTH_MAX];  // what the pixels were decoded despite, if anything
};

Errors& errors_of(j_common_ptr info) { return *reinterpret_cast<Errors*>(info->err); }

// Leaves libjpeg with its current message (error_exit).
[[noreturn]] void stop(j_common_ptr info) {
  Errors& errors = errors_of(info);
  errors.code = info->err->msg_code;
  info->err->format_message(info, errors.message);
  std::longjmp(errors.jump, 1);
}

// What a warning of libjpeg's says of the pixels.
enum class Meaning {
  Nothing,   // an unknown JFIF revision or Adobe transform, a bogus ICC marker, junk
             // between header segments, an encoder's few bytes of padding
  LeftOver,  // coded data left over at the end of the image: damage, or padding
  Damage,    // pixels made up: coded data that does not decode, ends early, is out of step
};

Meaning meaning(j_common_ptr info) {
  const jpeg_error_mgr& err = *info->err;
  switch (err.msg_code) {
    case JWRN_ARITH_BAD_CODE:     // "Corrupt JPEG data: bad arithmetic code"
    case JWRN_HUFF_BAD_CODE:      // "Corrupt JPEG data: bad Huffman code"
    case JWRN_HIT_MARKER:         // "Corrupt JPEG data: premature end of data segment"
    case JWRN_JPEG_EOF:           // "Premature end of JPEG file"
    case JWRN_MUST_RESYNC:        // "Corrupt JPEG data: found marker 0x%02x instead of RST%d"
    case JWRN_BOGUS_PROGRESSION:  // "Inconsistent progression sequence for component ..."
      return Meaning::Damage;
    case JWRN_EXTRANEOUS_DATA: {  // "Corrupt JPEG data: %u extraneous bytes before marker 0x%02x"
      // Before the first scan: junk between header segments. After it, what
      // the coded data left: damage throws it out of step and leaves a rest
      // (libjpeg-turbo decodes a bad Huffman code as zero where it has the
      // whole file in memory, and says nothing else). Before a restart
      // marker or the next scan of a progressive file no encoder pads: the
      // rest is damage. Before the end, some encoders and editors pad: a few
      // bytes pass, more are passed on as a warning, the pixels kept.
      if (reinterpret_cast<j_decompress_ptr>(info)->input_scan_number == 0) return Meaning::Nothing;
      if (err.msg_parm.i[1] != 0xD9) return Meaning::Damage;
      return err.msg_parm.i[0] > kMostJpegPaddingBytes ? Meaning::LeftOver : Meaning::Nothing;
    }
    default:
      return Meaning::Nothing;
  }
}

void on_message(j_common_ptr info, int level) {
  if (level >= 0) return;  // trace messages
  const Meaning said = meaning(info);
  if (said == Meaning::Damage) stop(info);
  Errors& errors = errors_of(info);
  if (said == Meaning::LeftOver && errors.warning[0] == '\0')
    info->err->format_message(info, errors.warning);
  ++info->err->num_warnings;
}

void on_output(j_common_ptr /*info*/) {}  // nothing goes to stderr

void on_progress(j_common_ptr info) {
  if (reinterpret_cast<j_decompress_ptr>(info)->input_scan_number <= kMostScans) return;
  Errors& errors = errors_of(info);
  errors.code = JMSG_NOMESSAGE;
  std::snprintf(errors.message, sizeof errors.message,
                "more than %d progressive scans, which are not decoded", kMostScans);
  std::longjmp(errors.jump, 1);
}

// The file's bytes as libjpeg reads them, as jpeg_mem_src gives them but for
// their end. Where they run out, an end marker follows (libjpeg's own
// source does that too, after a warning). Inside the coded data of a file of
// one scan of every component, Huffman-coded, the decoder's read-ahead
// reaches the end of a file whose only fault is a missing end marker: the
// marker given ends the image, and a file cut short still fails, its decoder
// finding the marker where it needs coded data. Anywhere else (the header; a
// progressive file or one of several scans, whose later scans could be what
// is missing; arithmetic-coded data) running out is damage, as libjpeg's
// warning says.
struct Source {
  jpeg_source_mgr manager{};  // first: libjpeg hands the callbacks a pointer to it
  bool in_scan = false;       // past the header, in the first scan's coded data
  bool ran_out = false;       // an end marker was made up in the only scan

  explicit Source(std::span<const unsigned char> bytes) {
    manager.next_input_byte = bytes.data();
    manager.bytes_in_buffer = bytes.size();
    manager.init_source = [](j_decompress_ptr) {};
    manager.fill_input_buffer = fill;
    manager.skip_input_data = skip;
    manager.resync_to_restart = jpeg_resync_to_restart;
    manager.term_source = [](j_decompress_ptr) {};
  }

  static boolean fill(j_decompress_ptr info) {
    static const JOCTET kEnd[] = {0xFF, JPEG_EOI};
    Source& source = *reinterpret_cast<Source*>(info->src);
    // (An arithmetic decoder reads zeros past a marker without a word: there
    // a file cut short would pass, so running out stays damage.)
    if (source.in_scan && info->progressive_mode == FALSE && info->arith_code == FALSE &&
        info->comps_in_scan == info->num_components) {
      source.ran_out = true;
    } else {
      WARNMS(info, JWRN_JPEG_EOF);
    }
    info->src->next_input_byte = kEnd;
    info->src->bytes_in_buffer = sizeof kEnd;
    return TRUE;
  }

  static void skip(j_decompress_ptr info, long count) {
    if (count <= 0) return;
    while (count > static_cast<long>(info->src->bytes_in_buffer)) {
      count -= static_cast<long>(info->src->bytes_in_buffer);
      (void)fill(info);
    }
    info->src->next_input_byte += count;
    info->src->bytes_in_buffer -= static_cast<std::size_t>(count);
  }
};

// A decompressor and what it reports to, destroyed however decoding ends.
struct Decompressor {
  jpeg_decompress_struct info{};
  Errors errors{};
  jpeg_progress_mgr progress{};

  Decompressor() {
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = stop;
    errors.manager.emit_message = on_message;
    errors.manager.output_message = on_output;
    progress.progress_monitor = on_progress;
  }
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;
  // Safe on a struct jpeg_create_decompress never reached or left half made
  // (it frees only what the memory manager holds).
  ~Decompressor() { jpeg_destroy_decompress(&info); }
};

// Runs `steps`, libjpeg calls, to their end (true) or to libjpeg's error
// (false, with its message in `errors`). libjpeg leaves by longjmp, which
// skips the frames between: `steps` must hold nothing with a destructor.
template <typename Steps>
bool guarded(Errors& errors, const Steps& steps) {
  if (setjmp(errors.jump) != 0) return false;
  steps();
  return true;
}

[[noreturn]] void refuse(const Errors& errors, const std::filesystem::path& path) {
  if (errors.code == JERR_OUT_OF_MEMORY) throw std::bad_alloc();
  // A JPEG of a kind libjpeg-turbo does not decode (12-bit, lossless, hierarchical).
  const bool unsupported = errors.code == JERR_BAD_PRECISION ||
                           errors.code == JERR_SOF_UNSUPPORTED ||
                           errors.code == JERR_NOT_COMPILED || errors.code == JERR_ARITH_NOTIMPL;
  throw Error(ErrorKind::Input,
              path.string() +
                  (unsupported ? ": cannot read image: " : ": corrupt or truncated image: ") +
                  std::string(errors.message));
}

}  // namespace

ExifIfd0 exif_ifd0(std::span<const unsigned char> data) {
  ExifIfd0 out;
  static constexpr unsigned char kExif[] = {'E', 'x', 'i', 'f', 0, 0};
  if (data.size() < sizeof kExif + 8 ||
      !std::equal(std::begin(kExif), std::end(kExif), data.begin()))
    return out;
  ByteSource tiff(data.subspan(sizeof kExif));
  const std::optional<TiffLayout> layout = TiffLayout::read(tiff);
  if (!layout || layout->big_tiff()) return out;
  const std::optional<TiffDirectory> ifd0 = layout->directory(tiff, layout->first_directory());
  if (!ifd0) return out;
  const bool whole = ifd0->whole();
  bool others = false;
  for (const TiffEntry& e : ifd0->entries) {
    // Orientation, XResolution, YResolution, ResolutionUnit, YCbCrPositioning.
    others = others || (e.tag != tiff_tag::kOrientation && e.tag != 0x011A && e.tag != 0x011B &&
                        e.tag != 0x0128 && e.tag != 0x0213);
  }
  // The first orientation tag: one SHORT, held in the entry itself.
  if (const TiffEntry* o = ifd0->find(tiff_tag::kOrientation);
      o != nullptr && o->type == tiff_type::kShort && o->count == 1) {
    const std::vector<std::uint64_t> value = layout->integers(tiff, *o, 1);
    if (!value.empty() && value[0] >= 1 && value[0] <= 8) {
      out.orientation = static_cast<std::uint8_t>(value[0]);
    }
  }
  out.beyond_orientation = !whole || others;
  return out;
}

std::uint8_t exif_orientation(std::span<const unsigned char> data) {
  return exif_ifd0(data).orientation;
}

std::optional<Image> decode_jpeg(std::span<const unsigned char> bytes,
                                 const std::filesystem::path& path,
                                 const std::function<void(const JpegShape&)>& check) {
  Source source(bytes);  // outlives the decompressor that reads it
  Decompressor d;
  if (!guarded(d.errors, [&] {
        jpeg_create_decompress(&d.info);
        d.info.src = &source.manager;
        // APP1 segments are kept (Exif's orientation is read from them), no others.
        jpeg_save_markers(&d.info, JPEG_APP0 + 1, 0xFFFF);
        (void)jpeg_read_header(&d.info, TRUE);
      })) {
    refuse(d.errors, path);
  }
  JpegShape shape{d.info.image_width, d.info.image_height, 0};
  bool cmyk = false;  // decoded as CMYK (libjpeg makes YCCK CMYK), converted to RGB here
  const J_COLOR_SPACE space = d.info.jpeg_color_space;
  if (d.info.num_components == 1 && space == JCS_GRAYSCALE) {
    shape.channels = 1;
  } else if (d.info.num_components == 3 && (space == JCS_YCbCr || space == JCS_RGB)) {
    shape.channels = 3;
  } else if (d.info.num_components == 4 && (space == JCS_CMYK || space == JCS_YCCK)) {
    shape.channels = 3;
    cmyk = true;
  } else {
    return std::nullopt;
  }
  check(shape);

  Image image = Image::allocate(
      shape.width, shape.height,
      {shape.channels == 1 ? ChannelLayout::Grey : ChannelLayout::RGB, SampleType::U8});
  image.codec = "jpeg";
  // The first Exif segment's orientation (another APP1 may hold XMP).
  for (jpeg_saved_marker_ptr m = d.info.marker_list; m != nullptr; m = m->next) {
    if (m->data_length >= 6 && std::memcmp(m->data, "Exif\0\0", 6) == 0) {
      image.orientation = exif_orientation({m->data, m->data_length});
      break;
    }
  }
  d.info.out_color_space = cmyk ? JCS_CMYK : shape.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  d.info.progress = &d.progress;
  source.in_scan = true;
  std::array<JSAMPROW, 16> rows{};
  // CMYK rows are decoded here, then converted into the image's.
  std::vector<unsigned char> inks(cmyk ? rows.size() * std::size_t{shape.width} * 4 : 0);
  if (!guarded(d.errors, [&] {
        (void)jpeg_start_decompress(&d.info);
        while (d.info.output_scanline < d.info.output_height) {
          const JDIMENSION first = d.info.output_scanline;
          const JDIMENSION count = std::min<JDIMENSION>(rows.size(), d.info.output_height - first);
          const auto row_of = [&](JDIMENSION i) {
            return reinterpret_cast<unsigned char*>(image.storage.data()) +
                   std::size_t{first + i} * image.stride;
          };
          for (JDIMENSION i = 0; i < count; ++i) {
            rows[i] = cmyk ? inks.data() + std::size_t{i} * shape.width * 4 : row_of(i);
          }
          const JDIMENSION read = jpeg_read_scanlines(&d.info, rows.data(), count);
          if (read == 0) return;  // (suspended)
          for (JDIMENSION i = 0; cmyk && i < read; ++i) {
            jpeg_cmyk_row_to_rgb(rows[i], row_of(i), shape.width);
          }
        }
      })) {
    // Cut short in its only scan: the decoder met the marker made up for the end.
    if (source.ran_out) {
      std::snprintf(d.errors.message, sizeof d.errors.message, "Premature end of JPEG file");
    }
    refuse(d.errors, path);
  }
  if (d.info.output_scanline < d.info.output_height) {
    throw Error(ErrorKind::Input, path.string() + ": corrupt or truncated image: the decoder " +
                                      "stopped at row " + std::to_string(d.info.output_scanline));
  }
  // Every row is decoded: what follows the coded data (a missing end marker,
  // a second image appended) is a warning, not a refusal.
  if (!guarded(d.errors, [&] { (void)jpeg_finish_decompress(&d.info); }) &&
      d.errors.warning[0] == '\0') {
    std::snprintf(d.errors.warning, sizeof d.errors.warning, "%s", d.errors.message);
  }
  if (source.ran_out) {
    std::snprintf(d.errors.warning, sizeof d.errors.warning,
                  "Premature end of JPEG file: no end marker after every row was decoded");
  }
  image.warning = d.errors.warning;
  return image;
}

}  // namespace gpuhist::images
