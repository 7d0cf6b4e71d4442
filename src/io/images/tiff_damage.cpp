#include "io/images/tiff_damage.hpp"

#include <tiffio.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include "io/images/jpeg_decoder.hpp"

namespace gpuhist::images {
namespace {

thread_local TiffDamage* watching = nullptr;
std::atomic<TIFFErrorHandler> previous_error{nullptr};
std::atomic<TIFFErrorHandler> previous_warning{nullptr};

enum class Meaning { Nothing, LeftOver, Damage };

// What a message of libtiff's `module` says of the pixels.
Meaning meaning(std::string_view module, std::string_view text) {
  // The CCITT fax decoders: a code that does not decode, a row of the wrong
  // length, data that ends early; the row is made up and decoding goes on.
  if (module == "Fax3Decode1D" || module == "Fax3Decode2D" || module == "Fax4Decode" ||
      module == "Fax3DecodeRLE") {
    return Meaning::Damage;
  }
  if (module != "JPEGLib") return Meaning::Nothing;
  // libjpeg's warnings on a JPEG-coded strip or tile.
  constexpr std::string_view kCorrupt = "Corrupt JPEG data: ";
  if (text.starts_with("Premature end of JPEG file") ||
      text.starts_with("Inconsistent progression sequence")) {
    return Meaning::Damage;
  }
  if (!text.starts_with(kCorrupt)) return Meaning::Nothing;
  // "Corrupt JPEG data: N extraneous bytes before marker 0xMM": before the end
  // marker, left over (a few bytes of padding pass); before a header segment,
  // junk between segments; before a scan or a restart marker, out of step.
  constexpr std::string_view kBefore = "extraneous bytes before marker 0x";
  const std::size_t at = text.find(kBefore);
  if (at == std::string_view::npos) return Meaning::Damage;
  const unsigned long marker =
      std::strtoul(std::string(text.substr(at + kBefore.size())).c_str(), nullptr, 16);
  if (marker == 0xD9) {
    const unsigned long bytes =
        std::strtoul(std::string(text.substr(kCorrupt.size())).c_str(), nullptr, 10);
    return bytes > static_cast<unsigned long>(kMostJpegPaddingBytes) ? Meaning::LeftOver
                                                                     : Meaning::Nothing;
  }
  const bool scan_or_restart = marker == 0xDA || (marker >= 0xD0 && marker <= 0xD7);
  return scan_or_restart ? Meaning::Damage : Meaning::Nothing;
}

void on_message(const std::atomic<TIFFErrorHandler>& previous, const char* module,
                const char* format, va_list ap) {
  if (watching != nullptr && module != nullptr) {
    char text[512];
    va_list copy;
    va_copy(copy, ap);
    std::vsnprintf(text, sizeof text, format, copy);
    va_end(copy);
    watching->heard(module, text);
  }
  if (const TIFFErrorHandler handler = previous.load(); handler != nullptr) {
    handler(module, format, ap);
  }
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
  watching = this;
}

TiffDamage::~TiffDamage() { watching = nullptr; }

void TiffDamage::heard(const char* module, const char* text) {
  // (Called from libtiff's C frames: nothing may be thrown through them.)
  try {
    const Meaning said = meaning(module, text);
    if (said == Meaning::Nothing) return;
    std::string& kept = said == Meaning::Damage ? said_ : left_over_;
    if (kept.empty()) kept = std::string(module) + ": " + text;
  } catch (...) {  // not enough memory for the message: the pixels are still read
  }
}

}  // namespace gpuhist::images
