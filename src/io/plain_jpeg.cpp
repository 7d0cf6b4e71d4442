#include "io/plain_jpeg.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "io/images/jpeg_decoder.hpp"

namespace gpuhist::io {
namespace {

// A check the module makes refused the file: the module says it.
struct LeftToTheModule {};

}  // namespace

bool jpeg_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".jpg" || extension == ".jpeg";
}

std::optional<Image> read_plain_jpeg(const std::filesystem::path& path,
                                     const LoadOptions& options) {
  // Kept from file to file on each decoding thread, as the module keeps its
  // own: a fresh buffer a file costs a page fault every 4 KiB. Let go of
  // after a file over 16 MB.
  static thread_local std::vector<unsigned char> bytes;
  struct Release {
    ~Release() {
      if (bytes.capacity() > (std::size_t{16} << 20)) std::vector<unsigned char>().swap(bytes);
    }
  } release;
  try {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::status(path, ec))) return std::nullopt;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size < 3 || ::access(path.c_str(), R_OK) != 0) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    unsigned char signature[3] = {};
    if (!in.read(reinterpret_cast<char*>(signature), 3) || signature[0] != 0xFF ||
        signature[1] != 0xD8 || signature[2] != 0xFF) {
      return std::nullopt;
    }
    bytes.resize(size);
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
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
