// The image-file module's one exported symbol (io/image_library.hpp).
#include "core/pixel_store.hpp"
#include "io/images/images.hpp"

extern "C" __attribute__((visibility("default"))) const gpuhist::io::ImageLibrary*
gpuhist_image_library(const gpuhist::io::ImageLibraryAbi* abi, gpuhist::core::PixelStore* store) {
  constexpr gpuhist::io::ImageLibraryAbi own = gpuhist::io::image_library_abi();
  if (abi == nullptr || abi->version != own.version) return nullptr;
  for (std::size_t i = 0; i < std::size(own.sizes); ++i) {
    if (abi->sizes[i] != own.sizes[i]) return nullptr;
  }
  if (store != nullptr) gpuhist::core::adopt_pixel_store(store);
  static constexpr gpuhist::io::ImageLibrary functions = {
      gpuhist::images::load_image,          gpuhist::images::common_format_of,
      gpuhist::images::has_image_extension, gpuhist::images::image_write_refusal,
      gpuhist::images::encode_image,        gpuhist::images::encode_picture,
      gpuhist::images::compose_report};
  return &functions;
}
