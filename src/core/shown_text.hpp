// A name the caller gave, as a one-line message shows it: control bytes (a
// NUL among them, which would end what() early) as \xHH, and a long one cut,
// its length said. Part of gpuhist_core.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace gpuhist {

[[nodiscard]] inline std::string shown_text(std::string_view given) {
  // Cut before a character's first byte, not within it.
  std::size_t shown = std::min<std::size_t>(given.size(), 100);
  while (shown < given.size() && shown > 0 && (given[shown] & 0xC0) == 0x80) --shown;
  std::string out;
  for (const char c : given.substr(0, shown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  if (shown < given.size()) out += "... (" + std::to_string(given.size()) + " bytes)";
  return out;
}

}  // namespace gpuhist
