// Writing images and pictures to files: encoded by the image-file module (a
// PNG or JPEG by libpng or libjpeg-turbo in this layer where that gives the
// module's file, io/plain_png.hpp, io/plain_jpeg.hpp), written through
// OutputFile, so that a file is complete or absent.
#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "io/file_signature.hpp"
#include "io/image_library.hpp"
#include "io/kept_metadata.hpp"
#include "io/plain_jpeg.hpp"
#include "io/plain_png.hpp"

namespace gpuhist {

namespace {

// Returns what the format could not hold of the image (Encoded::left_out).
template <typename Encode>
std::string write(const std::filesystem::path& path, const Encode& encode) {
  const io::ImageLibrary& images = io::image_library(ErrorKind::Output);
  OutputFile file(path);
  std::vector<unsigned char> bytes;
  const io::Encoded encoded = encode(images, file.path(), bytes);
  if (!encoded.error.empty()) output_failed(path, encoded.error);
  if (encoded.in_memory) file.write(std::as_bytes(std::span(bytes)));
  file.commit();
  return encoded.left_out;
}

// A source file's bytes, for its metadata: nothing from what is not a
// regular file (a pipe read once already) or is larger than any image's
// metadata makes worth reading again.
std::vector<unsigned char> read_source(const std::filesystem::path& path) {
  constexpr std::uintmax_t kLargest = std::uintmax_t{256} << 20;
  std::error_code ec;
  std::vector<unsigned char> bytes;
  if (!std::filesystem::is_regular_file(path, ec)) return bytes;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kLargest) return bytes;
  std::ifstream in(path, std::ios::binary);
  bytes.resize(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

// A regular file's first 8 bytes (enough for PNG's signature); nullopt for a
// shorter file or what is not a regular file (a pipe would wait).
std::optional<std::array<unsigned char, 8>> file_head(const std::filesystem::path& path) {
  std::array<unsigned char, 8> head{};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  if (in.gcount() != static_cast<std::streamsize>(head.size())) return std::nullopt;
  return head;
}

// Both files JPEG or both PNG, by their first bytes: only then is the source
// read again for what keep_metadata copies.
bool same_kind(const std::filesystem::path& source, const std::vector<unsigned char>& encoded) {
  const std::optional<std::array<unsigned char, 8>> head = file_head(source);
  return head && ((io::is_jpeg(*head) && io::is_jpeg(encoded)) ||
                  (io::is_png(*head) && io::is_png(encoded)));
}

// `image` encoded for `named`'s format into `bytes` without the module,
// with the metadata of `metadata_from` (none where it is empty), as the
// module would write it; false where that is left to the module.
bool encode_plain(const std::filesystem::path& named, const ImageView& image,
                  const std::filesystem::path& metadata_from, int quality,
                  std::vector<unsigned char>& bytes) {
  const bool png = io::png_extension(named);
  if (!png && !io::jpeg_extension(named)) return false;
  std::vector<unsigned char> source;
  if (!metadata_from.empty()) {
    // A source of the output's format alone is read whole (by its first bytes).
    const std::optional<std::array<unsigned char, 8>> head = file_head(metadata_from);
    if (!head || !(png ? io::is_png(*head) : io::is_jpeg(*head))) return false;
    source = read_source(metadata_from);
    if (source.empty()) return false;
  }
  if (png ? !io::encode_plain_png(image, source, bytes)
          : !io::encode_plain_jpeg(image, source, quality, bytes)) {
    return false;
  }
  io::keep_metadata(source, bytes, channel_count(image.format.layout) >= 3);
  return true;
}

// The name whose extension picks the format: `path`'s, or for a target that
// is not a regular file and names no format (/dev/null, a pipe), PNG's.
std::filesystem::path format_name(const std::filesystem::path& path) {
  if (written_in_place(path) && !has_writable_image_extension(path)) {
    return std::filesystem::path(path.string() + ".png");
  }
  return path;
}

}  // namespace

std::string save_image(const std::filesystem::path& path, const ImageView& image) {
  return save_image(path, image, {});
}

std::string save_image(const std::filesystem::path& path, const ImageView& image,
                       const std::filesystem::path& metadata_from, const SaveOptions& options) {
  validate(image);
  if (options.quality < 1 || options.quality > 100) {
    throw Error(ErrorKind::InvalidArgument,
                "a quality is 1..100, not " + std::to_string(options.quality));
  }
  if (image.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "only 8- and 16-bit images are written");
  }
  // A PNG or JPEG needs no module where its source's metadata is known here
  // (io/plain_png.hpp, io/plain_jpeg.hpp): the file is the module's file.
  if (std::vector<unsigned char> bytes;
      encode_plain(format_name(path), image, metadata_from, options.quality, bytes)) {
    OutputFile file(path);
    file.write(std::as_bytes(std::span(bytes)));
    file.commit();
    return {};
  }
  return write(path, [&](const io::ImageLibrary& images, const std::filesystem::path& file,
                         std::vector<unsigned char>& bytes) {
    io::Encoded encoded =
        images.encode_image(format_name(path), file, image, metadata_from, options.quality, bytes);
    if (encoded.error.empty() && encoded.in_memory && !metadata_from.empty() &&
        same_kind(metadata_from, bytes)) {
      const std::vector<unsigned char> source = read_source(metadata_from);
      io::keep_metadata(source, bytes, channel_count(image.format.layout) >= 3,
                        !encoded.unsound_profile);
    }
    return encoded;
  });
}

void save_picture(const std::filesystem::path& path, const Picture& picture) {
  // Four bytes a pixel, every one of them there (compared by division: the
  // product of two sides may not fit).
  if (picture.width == 0 || picture.height == 0 ||
      picture.rgba.size() / 4 / picture.width != picture.height ||
      picture.rgba.size() % (std::size_t{4} * picture.width) != 0) {
    throw Error(ErrorKind::InvalidArgument, "a picture of " + std::to_string(picture.width) + "x" +
                                                std::to_string(picture.height) +
                                                " pixels holds 4 bytes a pixel, not " +
                                                std::to_string(picture.rgba.size()) + " bytes");
  }
  const std::filesystem::path named = format_name(path);
  // A PNG needs no module (io/plain_png.hpp).
  if (std::vector<unsigned char> bytes;
      io::png_extension(named) && io::encode_plain_png(picture, bytes)) {
    OutputFile file(path);
    file.write(std::as_bytes(std::span(bytes)));
    file.commit();
    return;
  }
  (void)write(path, [&](const io::ImageLibrary& images, const std::filesystem::path& file,
                        std::vector<unsigned char>& bytes) {
    return images.encode_picture(named, file, picture, bytes);
  });
}

}  // namespace gpuhist
