// What libtiff says of damaged coded data while a TIFF's pixels are read.
// Its decoders conceal some damage and say so only in a message: a CCITT fax
// code that does not decode (the rest of the row made up), a JPEG-coded
// strip's damaged data (libjpeg's warnings). OpenImageIO's reader keeps the
// last message but fails only where the strip itself fails to decode, so
// such a file was counted with its made-up pixels, in silence. JPEG-coded
// strips are judged as JPEG files are (io/images/jpeg_decoder.hpp): data that
// ends early or is out of step is damage; coded data left over at the end,
// which damage leaves and so does padding, a warning past a few bytes; junk
// between header segments nothing.
#pragma once

#include <string>

namespace gpuhist::images {

// Watches the libtiff messages of this thread while it lives; the image
// library's handlers still get every message. Made after the image library
// opened a TIFF (which sets its own handlers once, on its first), so that
// the handlers put in place on the first watch stay.
class TiffDamage {
 public:
  TiffDamage();
  ~TiffDamage();
  TiffDamage(const TiffDamage&) = delete;
  TiffDamage& operator=(const TiffDamage&) = delete;

  // The first message of damage seen ("Fax4Decode: Bad code word at line 72
  // of strip 0 (x 153)"), or empty: the file's error.
  [[nodiscard]] const std::string& said() const { return said_; }
  // The first message of coded data left over at a JPEG strip's end, or
  // empty: the image's warning.
  [[nodiscard]] const std::string& left_over() const { return left_over_; }

  // (What the handlers fill in.)
  void heard(const char* module, const char* text);

 private:
  std::string said_;
  std::string left_over_;
};

}  // namespace gpuhist::images
