#include "gpuhist/image_planes.hpp"

#include <cerrno>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "io/jpeg_segments.hpp"
#include "io/missing_file.hpp"

namespace gpuhist {
namespace {

// How the other formats read by default are written in messages.
std::string display_name(const std::string& format) {
  static const std::map<std::string, std::string> names = {
      {"png", "PNG"},   {"tiff", "TIFF"}, {"webp", "WebP"}, {"openexr", "OpenEXR"},
      {"gif", "GIF"},   {"bmp", "BMP"},   {"pnm", "PNM"},   {"hdr", "Radiance HDR"},
      {"targa", "Targa"}, {"dpx", "DPX"}};
  const auto it = names.find(format);
  return it != names.end() ? it->second : format;
}

// Why a file cannot be read at all, or "" when it can.
std::string unreadable(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec) return io::missing_file_cause(ec);
  if (std::filesystem::is_directory(status)) return "is a directory";
  if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(path, ec) == 0 &&
      !ec) {
    return "empty file";
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return errno == EACCES ? "permission denied" : "cannot be opened";
  std::fclose(file);
  return {};
}

// The reader's causes that speak of video, said of a still picture.
std::string of_a_picture(const std::string& cause) {
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"not a video, or a damaged one: its mjpeg stream has no picture size",
       "corrupt or truncated JPEG: its header gives no picture size"},
      {"frames of ", "its "},
      {"its planes as decoded are not planar Y'CbCr or grey of 8 to 16 bits, little-endian: "
       "the stream is ",
       "its planes are not Y'CbCr or grey: it decodes as "},
  };
  for (const auto& [video, picture] : kWords) {
    if (cause.rfind(video, 0) == 0) return std::string(picture) + cause.substr(video.size());
  }
  return cause;
}

// What a JPEG's first frame header (SOF0 to SOF15) says of its coding.
struct JpegKind {
  bool arithmetic = false;  // SOF9 to SOF15
  bool lossless = false;    // SOF3, SOF7, SOF11, SOF15
  unsigned components = 0;  // 0 where its header is not read
};

JpegKind jpeg_kind(const std::filesystem::path& path) {
  // The header up to the first scan: the first 64 KiB, more while the
  // framing runs past them (metadata segments come first), up to 4 MiB (a
  // longer header is left to the decoder).
  constexpr std::size_t kFirstBytes = std::size_t{64} << 10;
  constexpr std::size_t kMostHeaderBytes = std::size_t{4} << 20;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return {};
  std::vector<unsigned char> head;
  io::JpegHeader header;
  for (std::size_t want = kFirstBytes; want <= kMostHeaderBytes; want *= 4) {
    const std::size_t had = head.size();
    head.resize(want);
    head.resize(had + std::fread(head.data() + had, 1, want - had, file));
    header = io::jpeg_header(head);
    if (!header.cut || head.size() < want) break;
  }
  std::fclose(file);
  const io::JpegSegment* frame = io::jpeg_frame_header(header);
  if (frame == nullptr) return {};
  JpegKind kind;
  kind.arithmetic = frame->marker >= 0xC9;
  kind.lossless = (frame->marker & 3) == 3;
  kind.components = io::jpeg_components(head, *frame);
  return kind;
}

}  // namespace

VideoFrame read_jpeg_planes(const std::filesystem::path& path, std::uint64_t max_pixels) {
  const std::string format = common_format_of(path);
  if (format != "jpeg") {
    // A file that cannot be read says so first (Targa is known by its name
    // alone, so a missing x.tga has a format).
    if (const std::string cause = unreadable(path); !cause.empty()) {
      throw Error(ErrorKind::Input, path.string() + ": " + cause);
    }
    throw Error(ErrorKind::Input,
                path.string() + ": Y'CbCr planes are counted from JPEG files, and " +
                    (format.empty() ? std::string("this is not a JPEG file")
                                    : "this is a " + display_name(format) + " file"),
                Remedy::CountRgb);
  }
  // What its frame header says: coded so that FFmpeg's decoder does not read
  // it, or samples that are no Y'CbCr.
  const JpegKind kind = jpeg_kind(path);
  if (kind.arithmetic && !kind.lossless) {
    throw Error(ErrorKind::Input,
                path.string() +
                    ": an arithmetic-coded JPEG, whose planes FFmpeg's decoder does "
                    "not read",
                Remedy::CountRgb);
  }
  if (kind.components == 4) {
    throw Error(ErrorKind::Input,
                path.string() +
                    ": a CMYK or YCCK JPEG, of four inks: its planes are not a picture's Y'CbCr",
                Remedy::CountRgb);
  }
  std::optional<VideoReader> opened;
  try {
    opened.emplace(path, max_pixels, FrameSpace::YCbCr);
  } catch (const Error& e) {
    const std::string prefix = path.string() + ": ";
    const std::string what = e.what();
    if (what.rfind(prefix, 0) != 0) throw;
    // A lossless JPEG is not read as RGB either: no remedy to offer.
    if (kind.lossless && e.remedy() == Remedy::CountRgb) {
      throw Error(e.kind(), prefix + of_a_picture(what.substr(prefix.size())) +
                                " (a lossless JPEG, which is not read as RGB either)");
    }
    throw Error(e.kind(), prefix + of_a_picture(what.substr(prefix.size())), e.remedy());
  }
  VideoReader& reader = *opened;
  VideoFrame frame;
  std::string damage;
  const bool decoded =
      reader.next(frame, [&](const std::string& cause) { damage = damage.empty() ? cause : damage; });
  if (!damage.empty() || reader.errors() > 0) {
    const std::string cause = !damage.empty() ? damage : reader.first_error();
    throw Error(ErrorKind::Input, path.string() + ": corrupt or truncated JPEG: " + cause);
  }
  if (!decoded || frame.planes.empty()) {
    throw Error(ErrorKind::Input, path.string() + ": corrupt JPEG: no picture decoded");
  }
  return frame;
}

}  // namespace gpuhist
