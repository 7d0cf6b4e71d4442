// The exit statuses of the gpuhist command (documented in README.md).
#pragma once

#include "gpuhist/error.hpp"

namespace gpuhist::cli {

enum ExitCode : int {
  kExitOk = 0,     // everything succeeded
  kExitInput = 1,  // one or more inputs could not be read; the others were processed
  kExitUsage =
      2,  // bad command line: unknown option, value out of range, unknown strategy or device
  kExitDevice = 3,     // no usable device for the request, or the GPU failed (out of memory, lost)
  kExitOutput = 4,     // the output could not be written
  kExitInternal = 70,  // an unexpected internal error
};

// The status of a library error: a bad argument is a usage error, a device
// failure a device error, an output failure an output error, the rest input.
[[nodiscard]] inline int exit_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Device:
      return kExitDevice;
    case ErrorKind::InvalidArgument:
      return kExitUsage;
    case ErrorKind::Output:
      return kExitOutput;
    case ErrorKind::Input:
      return kExitInput;
  }
  return kExitInput;
}

}  // namespace gpuhist::cli
