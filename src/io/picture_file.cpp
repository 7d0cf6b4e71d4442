// Writing images and pictures to files: encoded by the image-file module,
// written through OutputFile, so that a file is complete or absent.
#include <span>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "io/image_library.hpp"

namespace gpuhist {

namespace {

template <typename Encode>
void write(const std::filesystem::path& path, const Encode& encode) {
  const io::ImageLibrary& images = io::image_library(ErrorKind::Output);
  OutputFile file(path);
  std::vector<unsigned char> bytes;
  const io::Encoded encoded = encode(images, file.path(), bytes);
  if (!encoded.error.empty()) output_failed(path, encoded.error);
  if (encoded.in_memory) file.write(std::as_bytes(std::span(bytes)));
  file.commit();
}

}  // namespace

void save_image(const std::filesystem::path& path, const ImageView& image) {
  validate(image);
  if (image.format.sample == SampleType::F32) {
    throw Error(ErrorKind::InvalidArgument, "only 8- and 16-bit images are written");
  }
  write(path, [&](const io::ImageLibrary& images, const std::filesystem::path& file,
                  std::vector<unsigned char>& bytes) {
    return images.encode_image(path, file, image, bytes);
  });
}

void save_picture(const std::filesystem::path& path, const Picture& picture) {
  write(path, [&](const io::ImageLibrary& images, const std::filesystem::path& file,
                  std::vector<unsigned char>& bytes) {
    return images.encode_picture(path, file, picture, bytes);
  });
}

}  // namespace gpuhist
