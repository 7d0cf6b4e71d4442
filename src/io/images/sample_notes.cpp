#include "io/images/sample_notes.hpp"

#include <algorithm>
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

// The integer types the library reads as floats, the type's largest value as
// 1.0 (8- and 16-bit unsigned samples are counted as stored, floats as they are).
struct Scaled {
  OIIO::TypeDesc::BASETYPE type;
  const char* name;
  const char* unit;  // its largest value
  bool is_signed;
};
constexpr std::array<Scaled, 6> kScaled = {{
    {OIIO::TypeDesc::INT8, "int8", "127", true},
    {OIIO::TypeDesc::INT16, "int16", "32767", true},
    {OIIO::TypeDesc::INT32, "int32", "2147483647", true},
    {OIIO::TypeDesc::UINT32, "uint32", "4294967295", false},
    {OIIO::TypeDesc::INT64, "int64", "9223372036854775807", true},
    {OIIO::TypeDesc::UINT64, "uint64", "18446744073709551615", false},
}};

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
    const auto* s = std::find_if(kScaled.begin(), kScaled.end(),
                                 [&](const Scaled& scaled) { return scaled.type == type; });
    if (s != kScaled.end()) {
      notes.push_back(std::string(s->name) + " samples are counted as floats scaled to " + s->unit +
                      " = 1.0" + (s->is_signed ? ", values below 0 in the lowest bin" : "") +
                      " (only 8- and 16-bit unsigned samples are counted as stored)");
      break;
    }
  }
  return notes;
}

}  // namespace gpuhist::images
