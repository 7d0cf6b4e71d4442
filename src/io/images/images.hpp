// The image-file module's own functions (io/image_library.hpp): the work
// behind image_file.hpp and report.hpp, done with OpenImageIO.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/image_library.hpp"

namespace gpuhist::images {

[[nodiscard]] Image load_image(const std::filesystem::path& path, const LoadOptions& options);
[[nodiscard]] std::string common_format_of(const std::filesystem::path& path);
[[nodiscard]] bool has_image_extension(const std::filesystem::path& path, FormatSet formats);

[[nodiscard]] io::Encoded encode_image(const std::filesystem::path& target,
                                       const std::filesystem::path& file, const ImageView& image,
                                       std::vector<unsigned char>& bytes);
[[nodiscard]] io::Encoded encode_picture(const std::filesystem::path& target,
                                         const std::filesystem::path& file,
                                         const Picture& picture,
                                         std::vector<unsigned char>& bytes);

[[nodiscard]] Picture compose_report(const Image& image, const std::string& name,
                                     const Picture& rgb_panel, const Picture& luminance_panel,
                                     std::uint32_t bins);

}  // namespace gpuhist::images
