#include "io/images/sample_notes.hpp"

#include <array>
#include <cstdint>

namespace gpuhist::images {
namespace {

// Channels named in a note, at most; the rest are counted ("and 3 more").
constexpr std::size_t kNamed = 8;

// "R", or where the file names none or only by number, "the fifth (channel4)".
std::string channel_name(const OIIO::ImageSpec& spec, int index) {
  static constexpr std::array<const char*, 8> kOrdinals = {"first", "second", "third",   "fourth",
                                                           "fifth", "sixth",  "seventh", "eighth"};
  const auto at = static_cast<std::size_t>(index);
  const std::string name = at < spec.channelnames.size() ? spec.channelnames[at] : "";
  const std::string ordinal =
      at < kOrdinals.size() ? kOrdinals[at] : "number " + std::to_string(index + 1);
  if (name.empty()) return "the " + ordinal;
  if (name.rfind("channel", 0) == 0) return "the " + ordinal + " (" + name + ")";
  return name;
}

std::string names(const OIIO::ImageSpec& spec, const std::vector<int>& indices) {
  std::string text;
  for (std::size_t i = 0; i < indices.size() && i < kNamed; ++i) {
    text += (text.empty() ? "" : ", ") + channel_name(spec, indices[i]);
  }
  if (indices.size() > kNamed) text += " and " + std::to_string(indices.size() - kNamed) + " more";
  return text;
}

// The type's name and its largest value, which the library maps to 1.0; null
// for the types counted as stored (8- and 16-bit unsigned) and floats.
struct Scaled {
  const char* name;
  const char* unit;
};
const Scaled* scaled(OIIO::TypeDesc::BASETYPE type) {
  static constexpr Scaled kInt8{"int8", "127"}, kInt16{"int16", "32767"},
      kInt32{"int32", "2147483647"}, kUint32{"uint32", "4294967295"},
      kInt64{"int64", "9223372036854775807"}, kUint64{"uint64", "18446744073709551615"};
  switch (type) {
    case OIIO::TypeDesc::INT8:
      return &kInt8;
    case OIIO::TypeDesc::INT16:
      return &kInt16;
    case OIIO::TypeDesc::INT32:
      return &kInt32;
    case OIIO::TypeDesc::UINT32:
      return &kUint32;
    case OIIO::TypeDesc::INT64:
      return &kInt64;
    case OIIO::TypeDesc::UINT64:
      return &kUint64;
    default:
      return nullptr;
  }
}

}  // namespace

std::vector<std::string> sample_notes(const OIIO::ImageSpec& spec, ChannelLayout layout,
                                      bool skip_fourth) {
  std::vector<std::string> notes;
  const int read = static_cast<int>(channel_count(layout));
  std::vector<int> counted, left;
  for (int i = 0; i < spec.nchannels; ++i) {
    if (i == spec.alpha_channel || (skip_fourth && i == 3)) continue;
    (i < read ? counted : left).push_back(i);
  }
  if (!left.empty()) {
    notes.push_back((left.size() == 1 ? "its channel " : "its channels ") + names(spec, left) +
                    (left.size() == 1 ? " is" : " are") + " not counted (" + names(spec, counted) +
                    " counted as " + (layout == ChannelLayout::Grey ? "grey" : "RGB") + ")");
  }
  // The library reads other integer samples as floats, the type's largest value as 1.0:
  // said of the channels counted.
  for (const int i : counted) {
    const auto type = static_cast<OIIO::TypeDesc::BASETYPE>(spec.channelformat(i).basetype);
    if (const Scaled* s = scaled(type)) {
      const bool is_signed = type == OIIO::TypeDesc::INT8 || type == OIIO::TypeDesc::INT16 ||
                             type == OIIO::TypeDesc::INT32 || type == OIIO::TypeDesc::INT64;
      notes.push_back(std::string(s->name) + " samples are counted as floats scaled to " + s->unit +
                      " = 1.0" + (is_signed ? ", values below 0 in the lowest bin" : "") +
                      " (only 8- and 16-bit unsigned samples are counted as stored)");
      break;
    }
  }
  return notes;
}

}  // namespace gpuhist::images
