// libFuzzer target: the command line's parsing. The input is split at NUL
// bytes and newlines into arguments, parsed into every verb's options, and
// (nothing being run) the options each verb checks before it opens a file
// are checked too.
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "common_options.hpp"
#include "draw_command.hpp"
#include "gpuhist/image_file.hpp"

// The image-file module (OpenImageIO) is loaded before the first input, so
// that the fuzzer knows its code from the start.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  (void)gpuhist::has_image_extension("seed.png");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.emplace_back();
    } else {
      args.back() += c;
    }
  }
  // Help and errors are printed; the fuzzer need not read them.
  static std::ostringstream sink;
  sink.str({});
  std::streambuf* out = std::cout.rdbuf(sink.rdbuf());
  std::streambuf* err = std::cerr.rdbuf(sink.rdbuf());
  // One command line for every run (building one takes longer than
  // parsing); CLI11 clears what the last parse set before each parse.
  static gpuhist::cli::CommandLine command_line;
  (void)command_line.parse(args);
  for (const std::string& arg : args) {
    (void)gpuhist::cli::parse_size(arg);
    (void)gpuhist::cli::parse_overlay_size(arg);
    (void)gpuhist::cli::parse_numbers(arg, 0.0, 100.0);
    (void)gpuhist::cli::meant_verb(arg);
  }
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  return 0;
}
