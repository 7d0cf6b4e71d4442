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

// An error with its kind and a one-line human-readable cause.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace gpuhist
