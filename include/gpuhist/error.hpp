// Typed errors thrown by the gpuhist library. The library never prints and
// never exits: callers turn an Error into a message and an exit status.
#pragma once

#include <stdexcept>
#include <string>

namespace gpuhist {

// What went wrong, coarse enough for a caller to choose an exit status.
enum class ErrorKind {
  InvalidArgument,  // a parameter out of range (bins, image size, stride, strategy for a device)
  Input,            // a file that cannot be read, decoded, or is too large
  Device,           // no usable device, or the device failed (lost, out of memory)
  Output,           // a result that cannot be written
};

// The one setting that gets past an error, where there is one. The message
// does not name it: a front end does, in its own terms (the command line an
// option, Python an argument).
enum class Remedy {
  None,
  MaxPixels,    // a larger pixel limit (LoadOptions::max_pixels, the readers' max_pixels)
  AllFormats,   // every format the image library reads (FormatSet::All)
  CountRgb,     // counting the frames as RGB instead of their planes as decoded
  ReadAsVideo,  // reading the file as a video (VideoReader) rather than an image
};

// An error with its kind, a one-line human-readable cause and its remedy.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, Remedy remedy = Remedy::None)
      : std::runtime_error(message), kind_(kind), remedy_(remedy) {}
  [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }
  [[nodiscard]] Remedy remedy() const noexcept { return remedy_; }

 private:
  ErrorKind kind_;
  Remedy remedy_;
};

}  // namespace gpuhist
