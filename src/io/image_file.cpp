// Image files: read by the image-file module (io/image_library.hpp), which is
// loaded the first time an image file is looked at, but for JPEGs and PNGs
// that are read whole without it (io/plain_jpeg.hpp, io/plain_png.hpp).
#include "gpuhist/image_file.hpp"

#include "io/image_library.hpp"
#include "io/orientation.hpp"
#include "io/plain_jpeg.hpp"
#include "io/plain_png.hpp"

namespace gpuhist {

Image load_image(const std::filesystem::path& path, const LoadOptions& options) {
  if (std::optional<Image> jpeg = io::read_plain_jpeg(path, options)) return std::move(*jpeg);
  if (std::optional<Image> png = io::read_plain_png(path, options)) return std::move(*png);
  return io::image_library(ErrorKind::Input).load_image(path, options);
}

std::string damage_warning(std::string_view warning) {
  return std::string(warning) + " (the file may be damaged; its pixels are used as decoded)";
}

std::vector<std::string> reading_notes(const Image& image) {
  std::vector<std::string> notes;
  if (image.more_pages) {
    notes.emplace_back("the file holds more than one page (or frame); the first is counted");
  }
  notes.insert(notes.end(), image.notes.begin(), image.notes.end());
  return notes;
}

std::string common_format_of(const std::filesystem::path& path) {
  return io::image_library(ErrorKind::Input).common_format_of(path);
}

Image upright(Image image) {
  if (image.orientation == 1) return image;
  Image turned;
  io::turn(image.view(), io::upright_of_exif(image.orientation), turned);
  turned.codec = std::move(image.codec);
  turned.alpha = image.alpha;
  turned.more_pages = image.more_pages;
  turned.warning = std::move(image.warning);
  turned.notes = std::move(image.notes);
  turned.orientation = 1;
  return turned;
}

bool has_image_extension(const std::filesystem::path& path, FormatSet formats) {
  // JPEG's commonest names and PNG's are the module's too: a folder of them
  // is searched without it.
  if (io::jpeg_extension(path) || io::png_extension(path)) return true;
  return io::image_library(ErrorKind::Input).has_image_extension(path, formats);
}

bool has_writable_image_extension(const std::filesystem::path& path) {
  return image_write_refusal(path).empty();
}

std::string image_write_refusal(const std::filesystem::path& path) {
  // JPEG's commonest names and PNG's are written to: a name is checked without the module.
  if (io::jpeg_extension(path) || io::png_extension(path)) return {};
  return io::image_library(ErrorKind::Input).image_write_refusal(path);
}

}  // namespace gpuhist
