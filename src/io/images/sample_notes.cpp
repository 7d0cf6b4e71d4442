#include "io/images/sample_notes.hpp"

#include <cstdint>

namespace gpuhist::images {
namespace {

std::string channel_name(const OIIO::ImageSpec& spec, int index) {
  const auto at = static_cast<std::size_t>(index);
  const std::string name = at < spec.channelnames.size() ? spec.channelnames[at] : "";
  return name.empty() ? "channel " + std::to_string(index + 1) : name;
}

std::string names(const OIIO::ImageSpec& spec, const std::vector<int>& indices) {
  std::string text;
  for (int i : indices) text += (text.empty() ? "" : ", ") + channel_name(spec, i);
  return text;
}

// The largest value of an integer type the library maps to 1.0, as text.
const char* unit_value(OIIO::TypeDesc::BASETYPE type) {
  switch (type) {
    case OIIO::TypeDesc::INT8:
      return "127";
    case OIIO::TypeDesc::INT16:
      return "32767";
    case OIIO::TypeDesc::INT32:
      return "2147483647";
    case OIIO::TypeDesc::UINT32:
      return "4294967295";
    case OIIO::TypeDesc::INT64:
      return "9223372036854775807";
    case OIIO::TypeDesc::UINT64:
      return "18446744073709551615";
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
    notes.push_back(std::string(left.size() == 1 ? "its channel " : "its channels ") +
                    names(spec, left) + (left.size() == 1 ? " is" : " are") +
                    " not counted (" + names(spec, counted) + " counted as " +
                    (layout == ChannelLayout::Grey ? "grey" : "RGB") + ")");
  }
  // The library reads other integer samples as floats, the type's largest value as 1.0.
  OIIO::TypeDesc::BASETYPE widest = static_cast<OIIO::TypeDesc::BASETYPE>(spec.format.basetype);
  for (const OIIO::TypeDesc& t : spec.channelformats) {
    if (unit_value(static_cast<OIIO::TypeDesc::BASETYPE>(t.basetype)) != nullptr) {
      widest = static_cast<OIIO::TypeDesc::BASETYPE>(t.basetype);
    }
  }
  if (const char* unit = unit_value(widest)) {
    const bool is_signed = widest == OIIO::TypeDesc::INT8 || widest == OIIO::TypeDesc::INT16 ||
                           widest == OIIO::TypeDesc::INT32 || widest == OIIO::TypeDesc::INT64;
    notes.push_back(std::string(OIIO::TypeDesc(widest).c_str()) +
                    " samples are counted as floats scaled to " + unit + " = 1.0" +
                    (is_signed ? ", values below 0 in the lowest bin" : "") +
                    " (only 8- and 16-bit unsigned samples are counted as stored)");
  }
  return notes;
}

}  // namespace gpuhist::images
