#include "io/plain_jpeg.hpp"

#include <cstdint>
#include <exception>
#include <string>

#include "io/file_extension.hpp"
#include "io/images/jpeg_decoder.hpp"
#include "io/whole_file.hpp"

namespace gpuhist::io {
namespace {

// A check the module makes refused the file: the module says it.
struct LeftToTheModule {};

}  // namespace

bool jpeg_extension(const std::filesystem::path& path) {
  const std::string extension = lower_extension(path);
  return extension == "jpg" || extension == "jpeg";
}

std::optional<Image> read_plain_jpeg(const std::filesystem::path& path,
                                     const LoadOptions& options) {
  static constexpr unsigned char kSignature[] = {0xFF, 0xD8, 0xFF};
  ThreadFileBuffer buffer;
  try {
    const std::span<const unsigned char> bytes = buffer.read(path, kSignature);
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
