// The image-file module: everything that needs OpenImageIO (reading images,
// encoding pictures, the report sheet) lives in a module of its own,
// libgpuhist-images.so, loaded on first use. OpenImageIO brings some 260
// shared libraries whose loading and start-up take a third of a second, which
// a `video` run, `devices`, `--help` or a Python import never need to pay.
// The module carries its own copy of the core (its pixel buffers come from
// the loader's store, core/pixel_store.hpp) and exports one symbol.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/pixel_store.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/render.hpp"

namespace gpuhist::io {

// An image or picture encoded for its target's format: into `bytes` when the
// format's writer writes to memory (in_memory), else straight into the file
// named `file`. `error` is the cause when it could not be encoded.
struct Encoded {
  bool in_memory = false;
  std::string error;
  std::string left_out;  // what the format could not hold of the image, or ""
  // The metadata source holds an ICC profile the image library would read out
  // of bounds (io/images/icc_guard.hpp): its bytes are not to be copied.
  bool unsound_profile = false;
};

// The module's functions. Each throws what the public function of the same
// name says (image_file.hpp, report.hpp).
struct ImageLibrary {
  Image (*load_image)(const std::filesystem::path& path, const LoadOptions& options);
  std::string (*common_format_of)(const std::filesystem::path& path);
  bool (*has_image_extension)(const std::filesystem::path& path, FormatSet formats);
  std::string (*image_write_refusal)(const std::filesystem::path& path);
  // `target` names the format; `file` is where bytes go that the writer cannot keep in memory;
  // `metadata_from` (or empty) the file whose metadata the image keeps; `quality`
  // a JPEG's or WebP's (1..100).
  Encoded (*encode_image)(const std::filesystem::path& target, const std::filesystem::path& file,
                          const ImageView& image, const std::filesystem::path& metadata_from,
                          int quality, std::vector<unsigned char>& bytes);
  Encoded (*encode_picture)(const std::filesystem::path& target,
                            const std::filesystem::path& file, const Picture& picture,
                            std::vector<unsigned char>& bytes);
  Picture (*compose_report)(const Image& image, const std::string& name, const Picture& rgb_panel,
                            const Picture& luminance_panel, std::uint32_t bins);
};

// What a module must match to be used: the version and the layout of what
// crosses between the two copies of the code.
struct ImageLibraryAbi {
  std::uint32_t version;
  std::uint32_t sizes[6];
};
[[nodiscard]] constexpr ImageLibraryAbi image_library_abi() {
  return {
      10,
      {static_cast<std::uint32_t>(sizeof(ImageLibrary)), static_cast<std::uint32_t>(sizeof(Image)),
       static_cast<std::uint32_t>(sizeof(LoadOptions)),
       static_cast<std::uint32_t>(sizeof(ImageView)), static_cast<std::uint32_t>(sizeof(Picture)),
       static_cast<std::uint32_t>(sizeof(Error))}};
}

// The module, loaded on the first call (thread-safe). Throws Error(`kind`)
// naming the module and the cause when it cannot be found or loaded.
[[nodiscard]] const ImageLibrary& image_library(ErrorKind kind);

}  // namespace gpuhist::io

// The one symbol the module exports: its functions, after it has adopted
// `store` for its pixel buffers; null when `abi` differs from its own.
extern "C" const gpuhist::io::ImageLibrary* gpuhist_image_library(
    const gpuhist::io::ImageLibraryAbi* abi, gpuhist::core::PixelStore* store);
