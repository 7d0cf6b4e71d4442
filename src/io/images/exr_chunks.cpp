#include "io/images/exr_chunks.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {
namespace {

std::string truncated(const std::string& what, std::uint64_t size) {
  return "truncated image: its OpenEXR " + what + " runs past the end of its " +
         std::to_string(size) + " bytes";
}

// The `count` offsets of the table at `table_at`, or nullopt where it runs
// past the end of the file.
std::optional<std::vector<std::uint64_t>> offsets(ByteSource& file, std::uint64_t table_at,
                                                  std::uint64_t count) {
  const std::uint64_t size = file.size();
  std::vector<unsigned char> table;
  if (count > size / 8 || table_at > size - count * 8 ||
      !file.read(table_at, static_cast<std::size_t>(count * 8), table)) {
    return std::nullopt;
  }
  std::vector<std::uint64_t> out(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = std::uint64_t{little32(&table[8 * i])} | std::uint64_t{little32(&table[8 * i + 4])}
                                                          << 32;
  }
  return out;
}

}  // namespace

std::string uncompressed_exr_fault(ByteSource& file, std::uint64_t table_at,
                                   const ExrShape& shape) {
  const std::uint64_t size = file.size();
  const std::optional<std::vector<std::uint64_t>> table = offsets(file, table_at, shape.height);
  if (!table) return truncated("table of line offsets", size);
  const std::uint64_t line_bytes = shape.width * shape.pixel_bytes;
  std::array<unsigned char, 8> head{};
  for (std::uint64_t i = 0; i < shape.height; ++i) {
    const std::uint64_t at = (*table)[i];
    const std::string line =
        "line " + std::to_string(shape.first_line + static_cast<std::int64_t>(i));
    if (!file.read(at, 8, head.data()))
      return truncated(line + " at byte " + std::to_string(at), size);
    const auto y = static_cast<std::int32_t>(little32(&head[0]));
    const std::uint32_t bytes = little32(&head[4]);
    if (bytes != line_bytes || y < shape.first_line ||
        static_cast<std::uint64_t>(std::int64_t{y} - shape.first_line) >= shape.height) {
      return "corrupt image: its OpenEXR chunk at byte " + std::to_string(at) + " holds line " +
             std::to_string(y) + " in " + std::to_string(bytes) + " bytes, not a line of " +
             std::to_string(line_bytes);
    }
    if (bytes > size - at - 8) {
      return truncated(
          line + " of " + std::to_string(bytes) + " bytes at byte " + std::to_string(at + 8), size);
    }
  }
  return {};
}

std::string uncompressed_exr_tiles_fault(ByteSource& file, std::uint64_t table_at,
                                         const ExrShape& shape, std::uint64_t tile_width,
                                         std::uint64_t tile_height) {
  const std::uint64_t size = file.size();
  const std::uint64_t across = (shape.width + tile_width - 1) / tile_width;
  const std::uint64_t down = (shape.height + tile_height - 1) / tile_height;
  if (across == 0 || down == 0 || across > size || down > size / across) {
    return truncated("table of tile offsets", size);
  }
  const std::optional<std::vector<std::uint64_t>> table = offsets(file, table_at, across * down);
  if (!table) return truncated("table of tile offsets", size);
  std::array<unsigned char, 20> head{};
  for (std::uint64_t ty = 0; ty < down; ++ty) {
    for (std::uint64_t tx = 0; tx < across; ++tx) {
      const std::uint64_t at = (*table)[ty * across + tx];
      const std::string tile = "tile " + std::to_string(tx) + "," + std::to_string(ty);
      if (!file.read(at, head.size(), head.data())) {
        return truncated(tile + " at byte " + std::to_string(at), size);
      }
      const std::uint64_t wide = std::min(tile_width, shape.width - tx * tile_width);
      const std::uint64_t high = std::min(tile_height, shape.height - ty * tile_height);
      const std::uint64_t want = wide * high * shape.pixel_bytes;
      const std::uint32_t bytes = little32(&head[16]);
      if (little32(&head[0]) != tx || little32(&head[4]) != ty || little32(&head[8]) != 0 ||
          little32(&head[12]) != 0 || bytes != want) {
        return "corrupt image: its OpenEXR chunk at byte " + std::to_string(at) +
               " does not hold " + tile + " of level 0 in " + std::to_string(want) + " bytes";
      }
      if (bytes > size - at - head.size()) {
        return truncated(tile + " of " + std::to_string(bytes) + " bytes at byte " +
                             std::to_string(at + head.size()),
                         size);
      }
    }
  }
  return {};
}

}  // namespace gpuhist::images
