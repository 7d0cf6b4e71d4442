// Decoding image files in a separate process, so that a decoder that crashes,
// runs out of memory or hangs takes down only that process: the file is
// reported as unreadable and the rest of the batch goes on. Used for formats
// outside the common set (--formats all) and for every file with --isolate.
#pragma once

#include <sys/types.h>

#include <filesystem>

#include "gpuhist/image_file.hpp"

namespace gpuhist::cli {

class DecodeWorker {
 public:
  DecodeWorker() = default;
  DecodeWorker(const DecodeWorker&) = delete;
  DecodeWorker& operator=(const DecodeWorker&) = delete;
  ~DecodeWorker();

  // Decodes `path` as load_image does, in the worker process (started on
  // first use, and again after one dies). Throws Error(Input) naming the file
  // for what load_image refuses, for a decoder that crashed (with its
  // signal), and for one that did not finish in `kTimeoutSeconds`.
  [[nodiscard]] Image load(const std::filesystem::path& path, const LoadOptions& options);

  static constexpr int kTimeoutSeconds = 120;

 private:
  void start();
  void stop();
  pid_t pid_ = -1;
  int socket_ = -1;
};

// The hidden verb that starts a worker: `gpuhist __decode-worker`.
inline constexpr const char* kDecodeWorkerVerb = "__decode-worker";

// The worker's loop: reads requests on standard input (a socket), answers
// each with the decoded image or its error. Returns its exit status.
int run_decode_worker();

}  // namespace gpuhist::cli
