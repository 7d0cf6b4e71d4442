// What libtiff says of damaged coded data while a TIFF's pixels are read.
// Its decoders conceal some damage and say so only in a message: a CCITT fax
// code that does not decode (the rest of the row made up), a JPEG-coded
// strip's damaged data (libjpeg's warnings). OpenImageIO's reader keeps the
// last message but fails only where the strip itself fails to decode, so
// such a file was counted with its made-up pixels, in silence.
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
  // of strip 0 (x 153)"), or empty.
  [[nodiscard]] const std::string& said() const { return said_; }

 private:
  std::string said_;
};

}  // namespace gpuhist::images
