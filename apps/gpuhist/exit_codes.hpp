// The exit statuses of the gpuhist command (documented in README.md).
#pragma once

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

}  // namespace gpuhist::cli
