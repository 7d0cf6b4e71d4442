#include "io/images/gif_coded_data.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "io/images/byte_order.hpp"
#include "io/images/gif_alpha.hpp"

namespace gpuhist::images {
namespace {

constexpr unsigned kMostCodeBits = 12;
constexpr std::uint32_t kTableSize = 1U << kMostCodeBits;

// The bytes of the data sub-blocks (a size byte, then that many bytes, to a
// size of zero), one at a time.
class SubBlocks {
 public:
  SubBlocks(std::span<const unsigned char> file, std::size_t at) : file_(file), at_(at) {}

  // The next byte, or nothing where the sub-blocks (or the file) end.
  std::optional<unsigned char> next() {
    while (left_ == 0) {
      if (ended_ || at_ >= file_.size()) return std::nullopt;
      left_ = file_[at_++];
      if (left_ == 0) ended_ = true;
    }
    if (at_ >= file_.size()) return std::nullopt;
    --left_;
    return file_[at_++];
  }

 private:
  std::span<const unsigned char> file_;
  std::size_t at_;
  std::size_t left_ = 0;
  bool ended_ = false;
};

}  // namespace

std::string gif_coded_data_fault(std::span<const unsigned char> file) {
  const std::optional<std::size_t> descriptor = gif_first_descriptor(file);
  if (!descriptor) return {};
  std::size_t at = *descriptor;
  // The descriptor (10 bytes: its place and size, then packed fields), its
  // own colour table where the top flag says, then the minimum code size.
  if (at + 10 > file.size()) return {};
  const std::uint64_t pixels = std::uint64_t{little16(&file[at + 5])} * little16(&file[at + 7]);
  const unsigned char packed = file[at + 9];
  at += 10;
  if ((packed & 0x80) != 0) at += 3 * (std::size_t{1} << ((packed & 7) + 1));
  if (at >= file.size()) return {};
  const unsigned least = file[at++];
  if (least < 1 || least >= kMostCodeBits) return {};

  const std::uint32_t clear = 1U << least;
  const std::uint32_t end = clear + 1;
  // The length of the string each code stands for (0: not in the table yet).
  std::array<std::uint32_t, kTableSize> length{};
  for (std::uint32_t c = 0; c < clear; ++c) length[c] = 1;
  std::uint32_t next = clear + 2;
  unsigned bits = least + 1;
  constexpr std::uint32_t kNone = kTableSize;  // no code since the start or a clear code
  std::uint32_t previous = kNone;
  std::uint64_t made = 0;
  SubBlocks data(file, at);
  std::uint32_t held = 0;  // bits read ahead, the next code's first
  unsigned held_bits = 0;
  const auto made_so_far = [&] {
    return std::to_string(made) + " of its " + std::to_string(pixels) + " pixels";
  };
  while (made < pixels) {
    while (held_bits < bits) {
      const std::optional<unsigned char> byte = data.next();
      if (!byte) {
        return "corrupt or truncated image: the first picture's coded data ends after " +
               made_so_far();
      }
      held |= std::uint32_t{*byte} << held_bits;
      held_bits += 8;
    }
    const std::uint32_t code = held & ((1U << bits) - 1);
    held >>= bits;
    held_bits -= bits;
    if (code == clear) {
      for (std::uint32_t c = clear + 2; c < next; ++c) length[c] = 0;
      next = clear + 2;
      bits = least + 1;
      previous = kNone;
      continue;
    }
    if (code == end) {
      return "corrupt image: the first picture's coded data ends after " + made_so_far();
    }
    std::uint32_t stands_for = 0;
    if (code < next && length[code] != 0) {
      stands_for = length[code];
    } else if (code == next && previous != kNone) {
      stands_for = length[previous] + 1;
    } else {
      return "corrupt image: the first picture's coded data does not decode (an LZW code past "
             "its table after " +
             made_so_far() + ")";
    }
    // A full table takes no more codes until a clear code (a deferred clear).
    if (previous != kNone && next < kTableSize) {
      length[next] = length[previous] + 1;
      ++next;
      if (next == (1U << bits) && bits < kMostCodeBits) ++bits;
    }
    previous = code;
    made += stands_for;
  }
  return {};
}

}  // namespace gpuhist::images
