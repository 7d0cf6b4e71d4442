#include "io/images/exr_chunks.hpp"

#include <array>
#include <vector>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {

std::string uncompressed_exr_fault(ByteSource& file, std::uint64_t table_at,
                                   std::int64_t first_line, std::uint64_t lines,
                                   std::uint64_t line_bytes) {
  const std::uint64_t size = file.size();
  const auto truncated = [&](const std::string& what) {
    return "truncated image: its OpenEXR " + what + " runs past the end of its " +
           std::to_string(size) + " bytes";
  };
  if (lines > size / 8 || table_at > size - lines * 8) return truncated("table of line offsets");
  std::vector<unsigned char> table;
  if (!file.read(table_at, static_cast<std::size_t>(lines * 8), table)) {
    return truncated("table of line offsets");
  }
  std::array<unsigned char, 8> head{};
  for (std::uint64_t i = 0; i < lines; ++i) {
    const std::uint64_t at =
        std::uint64_t{little32(&table[8 * i])} | std::uint64_t{little32(&table[8 * i + 4])} << 32;
    const std::string line = "line " + std::to_string(first_line + static_cast<std::int64_t>(i));
    if (!file.read(at, 8, head.data())) return truncated(line + " at byte " + std::to_string(at));
    const auto y = static_cast<std::int32_t>(little32(&head[0]));
    const std::uint32_t bytes = little32(&head[4]);
    if (bytes != line_bytes || y < first_line ||
        static_cast<std::uint64_t>(std::int64_t{y} - first_line) >= lines) {
      return "corrupt image: its OpenEXR chunk at byte " + std::to_string(at) + " holds line " +
             std::to_string(y) + " in " + std::to_string(bytes) + " bytes, not a line of " +
             std::to_string(line_bytes);
    }
    if (bytes > size - at - 8) {
      return truncated(line + " of " + std::to_string(bytes) + " bytes at byte " +
                       std::to_string(at + 8));
    }
  }
  return {};
}

}  // namespace gpuhist::images
