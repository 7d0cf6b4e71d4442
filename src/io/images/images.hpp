// The image-file module's own functions (io/image_library.hpp): the work
// behind image_file.hpp and report.hpp, done with OpenImageIO.
#pragma once

#include <OpenImageIO/imageio.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/image_library.hpp"

namespace gpuhist::images {

[[nodiscard]] Image load_image(const std::filesystem::path& path, const LoadOptions& options);
[[nodiscard]] std::string common_format_of(const std::filesystem::path& path);
[[nodiscard]] bool has_image_extension(const std::filesystem::path& path, FormatSet formats);
[[nodiscard]] std::string image_write_refusal(const std::filesystem::path& path);

[[nodiscard]] io::Encoded encode_image(const std::filesystem::path& target,
                                       const std::filesystem::path& file, const ImageView& image,
                                       const std::filesystem::path& metadata_from, int quality,
                                       std::vector<unsigned char>& bytes);

// Whether the TIFF or PNG file at `path` holds an ICC profile the image
// library would read out of bounds (false for any other format).
[[nodiscard]] bool has_unsound_profile(const std::filesystem::path& path);

// A TIFF, PNG, WebP or OpenEXR file opened for its metadata, after the checks
// load_image makes before a decoder sees a header (for an image of `pixels`
// pixels); null for another format or a file that does not pass them. Its
// ICC profile the caller checks first (has_unsound_profile).
[[nodiscard]] std::unique_ptr<OIIO::ImageInput> open_for_metadata(const std::filesystem::path& path,
                                                                  std::uint64_t pixels);
[[nodiscard]] io::Encoded encode_picture(const std::filesystem::path& target,
                                         const std::filesystem::path& file,
                                         const Picture& picture,
                                         std::vector<unsigned char>& bytes);

[[nodiscard]] Picture compose_report(const Image& image, const std::string& name,
                                     const Picture& rgb_panel, const Picture& luminance_panel,
                                     std::uint32_t bins);

}  // namespace gpuhist::images
