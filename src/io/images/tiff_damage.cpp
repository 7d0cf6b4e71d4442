#include "io/images/tiff_damage.hpp"

#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace gpuhist::images {
namespace {

// Encoders pad a JPEG's coded data with a few bytes at most (as JPEG files
// are read: io/images/jpeg_decoder.hpp).
constexpr unsigned long kMostPaddingBytes = 16;

thread_local std::string* watching = nullptr;
TIFFErrorHandler previous_error = nullptr;
TIFFErrorHandler previous_warning = nullptr;

// Whether a message of libtiff's `module` says that pixels were made up.
bool says_damage(std::string_view module, std::string_view text) {
  // libjpeg's warnings on a JPEG-coded strip or tile, as a JPEG file's are read.
  if (module == "JPEGLib") {
    constexpr std::string_view kLeftOver = "Corrupt JPEG data: ";
    if (text.starts_with(kLeftOver) &&
        text.find("extraneous bytes before marker 0xd9") != std::string_view::npos) {
      const unsigned long bytes =
          std::strtoul(std::string(text.substr(kLeftOver.size())).c_str(), nullptr, 10);
      return bytes > kMostPaddingBytes;
    }
    return text.starts_with(kLeftOver) || text.starts_with("Premature end of JPEG file") ||
           text.starts_with("Inconsistent progression sequence");
  }
  // A decoder's own message (Fax3Decode1D, Fax3Decode2D, Fax4Decode, LZWDecode,
  // PackBitsDecode, ZIPDecode, ...): codes that do not decode, rows of the
  // wrong length, data that ends early. An LZW strip that lacks its end code
  // decodes whole.
  return module.find("Decode") != std::string_view::npos &&
         text.find("not terminated with EOI code") == std::string_view::npos;
}

void on_message(TIFFErrorHandler previous, const char* module, const char* format, va_list ap) {
  if (watching != nullptr && watching->empty() && module != nullptr) {
    char text[512];
    va_list copy;
    va_copy(copy, ap);
    std::vsnprintf(text, sizeof text, format, copy);
    va_end(copy);
    if (says_damage(module, text)) *watching = std::string(module) + ": " + text;
  }
  if (previous != nullptr) previous(module, format, ap);
}

void on_error(const char* module, const char* format, va_list ap) {
  on_message(previous_error, module, format, ap);
}

void on_warning(const char* module, const char* format, va_list ap) {
  on_message(previous_warning, module, format, ap);
}

}  // namespace

TiffDamage::TiffDamage() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    previous_error = TIFFSetErrorHandler(on_error);
    previous_warning = TIFFSetWarningHandler(on_warning);
  });
  watching = &said_;
}

TiffDamage::~TiffDamage() { watching = nullptr; }

}  // namespace gpuhist::images
