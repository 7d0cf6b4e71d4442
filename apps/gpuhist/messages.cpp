#include "messages.hpp"

#include <array>
#include <cstdio>
#include <iostream>
#include <new>
#include <stdexcept>

#include "exit_codes.hpp"

namespace gpuhist::cli {

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      std::array<char, 5> hex{};
      std::snprintf(hex.data(), hex.size(), "\\x%02X", byte);
      out += hex.data();
    } else {
      out += c;
    }
  }
  return out;
}

void print_error(std::string_view message) {
  std::cerr << "gpuhist: error: " << one_line(message) << '\n';
}

int usage_error(std::string_view message) {
  print_error(message);
  return kExitUsage;
}

std::string describe(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "not enough memory";
  // A container asked for more than it can hold ("vector::_M_default_append").
  if (dynamic_cast<const std::length_error*>(&e) != nullptr) {
    return "not enough memory (a size too large to allocate)";
  }
  return e.what();
}

}  // namespace gpuhist::cli
