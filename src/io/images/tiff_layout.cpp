#include "io/images/tiff_layout.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace gpuhist::images {
namespace {

// Bytes a value of field type `type` takes; 0 for a type TIFF does not define.
std::uint64_t type_size(std::uint16_t type) {
  switch (type) {
    case 1:
    case 2:
    case 6:
    case 7:
      return 1;  // BYTE, ASCII, SBYTE, UNDEFINED
    case 3:
    case 8:
      return 2;  // SHORT, SSHORT
    case 4:
    case 9:
    case 11:
    case 13:
      return 4;  // LONG, SLONG, FLOAT, IFD
    case 5:
    case 10:
    case 12:
    case 16:
    case 17:
    case 18:
      return 8;
    default:
      return 0;
  }
}

bool unsigned_integer(std::uint16_t type) {
  return type == 1 || type == 3 || type == 4 || type == 13 || type == 16 || type == 18;
}

}  // namespace

const TiffEntry* TiffDirectory::find(std::uint16_t tag) const noexcept {
  for (const TiffEntry& e : entries)
    if (e.tag == tag) return &e;
  return nullptr;
}

std::optional<TiffLayout> TiffLayout::read(ByteSource& source) {
  std::array<unsigned char, 16> head{};
  if (!source.read(0, 8, head.data())) return std::nullopt;
  TiffLayout layout;
  if (head[0] == 'I' && head[1] == 'I') {
    layout.little_ = true;
  } else if (head[0] == 'M' && head[1] == 'M') {
    layout.little_ = false;
  } else {
    return std::nullopt;
  }
  const std::uint64_t version = layout.integer(&head[2], 2);
  if (version == 42) {
    layout.first_ = layout.integer(&head[4], 4);
  } else if (version == 43) {
    // BigTIFF: 8-byte offsets (the next two bytes), then the first directory's.
    if (!source.read(8, 8, &head[8]) || layout.integer(&head[4], 2) != 8) return std::nullopt;
    layout.big_ = true;
    layout.first_ = layout.integer(&head[8], 8);
  } else {
    return std::nullopt;
  }
  return layout;
}

std::uint64_t TiffLayout::integer(const unsigned char* p, std::size_t bytes) const noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v = v << 8 | p[little_ ? bytes - 1 - i : i];
  return v;
}

void TiffLayout::put(unsigned char* p, std::size_t bytes, std::uint64_t value) const noexcept {
  for (std::size_t i = 0; i < bytes; ++i) {
    p[little_ ? i : bytes - 1 - i] = static_cast<unsigned char>(value >> (8 * i));
  }
}

std::optional<TiffDirectory> TiffLayout::directory(ByteSource& source, std::uint64_t at,
                                                   std::uint64_t most) const {
  std::array<unsigned char, 8> field{};
  if (!source.read(at, count_bytes(), field.data())) return std::nullopt;
  TiffDirectory d;
  d.at = at;
  d.declared = integer(field.data(), count_bytes());
  if (d.declared > most) return d;
  const std::uint64_t first = at + count_bytes();
  // The table read at once, as far as the source holds it.
  const std::uint64_t room = first <= source.size() ? source.size() - first : 0;
  const std::uint64_t present = std::min(d.declared, room / entry_bytes());
  std::vector<unsigned char> table;
  if (!source.read(first, static_cast<std::size_t>(present * entry_bytes()), table)) return d;
  d.entries.reserve(static_cast<std::size_t>(present));
  for (std::uint64_t i = 0; i < present; ++i) {
    const unsigned char* raw = table.data() + i * entry_bytes();
    TiffEntry e;
    e.at = first + i * entry_bytes();
    e.tag = static_cast<std::uint16_t>(integer(&raw[0], 2));
    e.type = static_cast<std::uint16_t>(integer(&raw[2], 2));
    e.count = integer(&raw[4], word());
    const std::uint64_t size = type_size(e.type);
    e.value_bytes = size != 0 && e.count <= std::numeric_limits<std::uint64_t>::max() / size
                        ? e.count * size
                        : 0;
    const std::uint64_t field_at = e.at + 4 + word();
    e.values_at = e.value_bytes <= word() ? field_at : integer(&raw[4 + word()], word());
    d.entries.push_back(e);
  }
  if (source.read(first + d.declared * entry_bytes(), word(), field.data())) {
    d.next = integer(field.data(), word());
  }
  return d;
}

std::vector<unsigned char> TiffLayout::values(ByteSource& source, const TiffEntry& entry,
                                              std::uint64_t most) const {
  std::vector<unsigned char> out;
  if (entry.value_bytes == 0 || entry.value_bytes > most) return out;
  source.read(entry.values_at, static_cast<std::size_t>(entry.value_bytes), out);
  return out;
}

std::vector<std::uint64_t> TiffLayout::integers(ByteSource& source, const TiffEntry& entry,
                                                std::uint64_t most) const {
  std::vector<std::uint64_t> out;
  if (!unsigned_integer(entry.type) || entry.count == 0 || entry.count > most) return out;
  const std::uint64_t size = entry.value_bytes / entry.count;
  const std::vector<unsigned char> bytes = values(source, entry, entry.value_bytes);
  if (bytes.empty()) return out;
  out.reserve(static_cast<std::size_t>(entry.count));
  for (std::uint64_t k = 0; k < entry.count; ++k) {
    out.push_back(integer(bytes.data() + k * size, static_cast<std::size_t>(size)));
  }
  return out;
}

std::vector<std::uint64_t> TiffLayout::integers(ByteSource& source, const TiffDirectory& directory,
                                                std::uint16_t tag, std::uint64_t most) const {
  const TiffEntry* entry = directory.find(tag);
  return entry != nullptr ? integers(source, *entry, most) : std::vector<std::uint64_t>{};
}

}  // namespace gpuhist::images
