#include "io/images/tiff_bits.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "io/images/byte_order.hpp"

namespace gpuhist::images {
namespace {

constexpr std::uint32_t kBitsPerSample = 258;
constexpr std::uint32_t kSamplesPerPixel = 277;

struct Order {
  bool little = true;
  [[nodiscard]] std::uint32_t u16(const unsigned char* p) const {
    return little ? little16(p) : big16(p);
  }
  [[nodiscard]] std::uint32_t u32(const unsigned char* p) const {
    return little ? little32(p) : big32(p);
  }
};

// Whether `head` (8 bytes) starts a classic TIFF, and its byte order.
bool classic(const unsigned char* head, Order& order) {
  if (std::memcmp(head, "II*\0", 4) == 0) {
    order.little = true;
    return true;
  }
  if (std::memcmp(head, "MM\0*", 4) == 0) {
    order.little = false;
    return true;
  }
  return false;
}

}  // namespace

bool tiff_lacks_bits_per_sample(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, 8> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  Order order;
  if (in.gcount() != 8 || !classic(head.data(), order)) return false;
  std::array<unsigned char, 2> count{};
  in.seekg(order.u32(&head[4]));
  in.read(reinterpret_cast<char*>(count.data()), 2);
  if (in.gcount() != 2) return false;
  std::vector<unsigned char> entries(std::size_t{12} * order.u16(count.data()));
  in.read(reinterpret_cast<char*>(entries.data()), static_cast<std::streamsize>(entries.size()));
  if (static_cast<std::size_t>(in.gcount()) != entries.size() || entries.empty()) return false;
  for (std::size_t e = 0; e < entries.size(); e += 12) {
    const std::uint32_t tag = order.u16(&entries[e]);
    if (tag == kBitsPerSample) return false;
    // One sample a pixel, as a SHORT (or LONG) in the entry itself.
    if (tag == kSamplesPerPixel) {
      const std::uint32_t type = order.u16(&entries[e + 2]);
      const std::uint32_t samples = type == 3 ? order.u16(&entries[e + 8])
                                    : type == 4 ? order.u32(&entries[e + 8])
                                                : 0;
      if (samples != 1) return false;
    }
  }
  return true;
}

void add_one_bit_per_sample(std::vector<unsigned char>& bytes) {
  Order order;
  if (bytes.size() < 8 || !classic(bytes.data(), order)) return;
  const std::uint64_t at = order.u32(&bytes[4]);
  if (at + 2 > bytes.size()) return;
  const std::uint32_t n = order.u16(&bytes[at]);
  if (n == 0xFFFF || at + 2 + std::uint64_t{12} * n + 4 > bytes.size()) return;
  const auto put16 = [&](std::vector<unsigned char>& to, std::uint32_t v) {
    to.push_back(static_cast<unsigned char>(order.little ? v : v >> 8));
    to.push_back(static_cast<unsigned char>(order.little ? v >> 8 : v));
  };
  const auto put32 = [&](std::vector<unsigned char>& to, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      to.push_back(static_cast<unsigned char>(v >> (order.little ? 8 * i : 24 - 8 * i)));
    }
  };
  // The new field: BitsPerSample, SHORT, one value, 1 (in the entry's first two bytes).
  std::vector<unsigned char> field;
  put16(field, kBitsPerSample);
  put16(field, 3);
  put32(field, 1);
  put16(field, 1);
  put16(field, 0);
  // The directory copied in tag order with the field among its entries, the
  // pointer to the next directory kept; on a word boundary, as TIFF wants.
  std::vector<unsigned char> directory;
  put16(directory, n + 1);
  bool placed = false;
  for (std::uint32_t e = 0; e < n; ++e) {
    const unsigned char* entry = &bytes[at + 2 + std::uint64_t{12} * e];
    if (!placed && order.u16(entry) > kBitsPerSample) {
      directory.insert(directory.end(), field.begin(), field.end());
      placed = true;
    }
    directory.insert(directory.end(), entry, entry + 12);
  }
  if (!placed) directory.insert(directory.end(), field.begin(), field.end());
  const unsigned char* next = &bytes[at + 2 + std::uint64_t{12} * n];
  directory.insert(directory.end(), next, next + 4);
  if (bytes.size() % 2 != 0) bytes.push_back(0);
  if (bytes.size() > 0xFFFFFFFFU - directory.size()) return;
  const auto placed_at = static_cast<std::uint32_t>(bytes.size());
  bytes.insert(bytes.end(), directory.begin(), directory.end());
  std::vector<unsigned char> offset;
  put32(offset, placed_at);
  std::memcpy(&bytes[4], offset.data(), 4);
}

}  // namespace gpuhist::images
