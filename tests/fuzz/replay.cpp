// Runs a fuzz target's entry point once on each file named (or each file in
// each folder named), without libFuzzer: the corpus replayed by an ordinary
// build, under valgrind's memcheck (tests/memcheck.sh), which sees into the
// decoders' hand-written assembly where AddressSanitizer does not.
// Usage: replay_TARGET [--names] FILE_OR_FOLDER...
//   --names: each input's name on stderr before it runs (to tell which one a
//   report that follows belongs to).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

bool print_names = false;

bool replay(const std::filesystem::path& file) {
  if (print_names) std::fprintf(stderr, "replay: %s\n", file.c_str());
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read '%s'\n", file.c_str());
    return false;
  }
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  (void)LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s [--names] FILE_OR_FOLDER...\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize != nullptr) (void)LLVMFuzzerInitialize(&argc, &argv);
  int first = 1;
  if (argc > 1 && std::string(argv[1]) == "--names") {
    print_names = true;
    first = 2;
  }
  std::size_t count = 0;
  bool ok = true;
  for (int i = first; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::error_code error;
    if (std::filesystem::is_directory(arg, error)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg, error))
        if (entry.is_regular_file()) files.push_back(entry.path());
      if (error) {
        std::fprintf(stderr, "replay: cannot list '%s': %s\n", arg.c_str(), error.message().c_str());
        ok = false;
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        ok = replay(file) && ok;
        ++count;
      }
    } else {
      ok = replay(arg) && ok;
      ++count;
    }
  }
  std::printf("replayed %zu inputs\n", count);
  return ok ? 0 : 1;
}
