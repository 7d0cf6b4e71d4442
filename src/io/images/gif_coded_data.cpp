#include "io/images/gif_coded_data.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "io/images/byte_order.hpp"
#include "io/images/gif_alpha.hpp"

namespace gpuhist::images {
namespace {

constexpr unsigned kMostCodeBits = 12;
constexpr std::uint32_t kTableSize = 1U << kMostCodeBits;
// The blocks before the first picture are looked for within this much.
constexpr std::size_t kHeadBytes = std::size_t{1} << 20;
constexpr std::size_t kPartBytes = std::size_t{1} << 16;

// The bytes of the data sub-blocks (a size byte, then that many bytes, to a
// size of zero) from `at`, one at a time: from `head` (the file's first
// bytes, read already) while they last, then from the file a part at a time.
class SubBlocks {
 public:
  SubBlocks(ByteSource& file, std::vector<unsigned char> head, std::uint64_t at)
      : file_(file), at_(at), part_(std::move(head)) {
    if (at < part_.size()) {
      used_ = static_cast<std::size_t>(at);
      at_ = part_.size();
    } else {
      part_.clear();
    }
  }

  // The next byte, or nothing where the sub-blocks (or the file) end.
  std::optional<unsigned char> next() {
    while (left_ == 0) {
      if (ended_) return std::nullopt;
      const std::optional<unsigned char> size = byte();
      if (!size) return std::nullopt;
      left_ = *size;
      if (left_ == 0) ended_ = true;
    }
    --left_;
    return byte();
  }

 private:
  std::optional<unsigned char> byte() {
    if (used_ == part_.size()) {
      const std::uint64_t left = at_ < file_.size() ? file_.size() - at_ : 0;
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, kPartBytes));
      if (n == 0 || !file_.read(at_, n, part_)) return std::nullopt;
      at_ += n;
      used_ = 0;
    }
    return part_[used_++];
  }

  ByteSource& file_;
  std::uint64_t at_;
  std::vector<unsigned char> part_;
  std::size_t used_ = 0;
  std::size_t left_ = 0;
  bool ended_ = false;
};

}  // namespace

std::string gif_coded_data_fault(ByteSource& file) {
  std::vector<unsigned char> head;
  if (!file.read(0, static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), kHeadBytes)),
                 head)) {
    return {};
  }
  const std::optional<std::size_t> descriptor = gif_first_descriptor(head);
  if (!descriptor) return {};
  std::uint64_t at = *descriptor;
  // The descriptor (10 bytes: its place and size, then packed fields), its
  // own colour table where the top flag says, then the minimum code size.
  unsigned char fields[10];
  if (!file.read(at, sizeof fields, fields)) return {};
  const std::uint64_t pixels = std::uint64_t{little16(&fields[5])} * little16(&fields[7]);
  at += sizeof fields;
  if ((fields[9] & 0x80) != 0) at += 3 * (std::uint64_t{1} << ((fields[9] & 7) + 1));
  unsigned char least = 0;
  if (!file.read(at, 1, &least)) return {};
  ++at;
  if (least < 1 || least >= kMostCodeBits) return {};

  const std::uint32_t clear = 1U << least;
  const std::uint32_t end = clear + 1;
  // The length of the string each code stands for (0: not in the table).
  std::array<std::uint32_t, kTableSize> length{};
  for (std::uint32_t c = 0; c < clear; ++c) length[c] = 1;
  // As giflib counts: `running` goes up by one with every code read, from
  // two past the end code (and back there at a clear code); the codes widen
  // by a bit once it passes 2^bits. The entry a code defines (after the first
  // since a clear code) is running - 2.
  unsigned bits = least + 1;
  std::uint32_t running = clear + 2;
  constexpr std::uint32_t kNone = kTableSize;  // no code since the start or a clear code
  std::uint32_t previous = kNone;
  std::uint64_t made = 0;
  SubBlocks data(file, std::move(head), at);
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
    if (running < kTableSize + 1 && ++running > (1U << bits) && bits < kMostCodeBits) ++bits;
    if (code == clear) {
      std::fill(length.begin() + clear + 2, length.end(), 0);
      bits = least + 1;
      running = clear + 2;
      previous = kNone;
      continue;
    }
    if (code == end) {
      return "corrupt image: the first picture's coded data ends after " + made_so_far();
    }
    const std::uint32_t slot = running - 2;
    std::uint32_t stands_for = 0;
    if (length[code] != 0) {
      stands_for = length[code];
    } else if (code == slot && previous != kNone) {
      stands_for = length[previous] + 1;
    } else {
      return "corrupt image: the first picture's coded data does not decode (an LZW code past "
             "its table after " +
             made_so_far() + ")";
    }
    if (previous != kNone && slot < kTableSize) length[slot] = length[previous] + 1;
    previous = code;
    made += stands_for;
  }
  return {};
}

}  // namespace gpuhist::images
