#include "io/image_library.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace gpuhist::io {
namespace {

constexpr const char* kModule = "libgpuhist-images.so";

// The file this code was linked into: the gpuhist executable, a test, or
// the Python module.
std::filesystem::path host_file() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&image_library), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  // The main program is named as it was started (argv[0], maybe found on PATH).
  if (info.dli_fname == program_invocation_name ||
      std::strcmp(info.dli_fname, program_invocation_name) == 0 || info.dli_fname[0] == '\0') {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : self;
  }
  std::error_code ec;
  const auto file = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path(info.dli_fname) : file;
}

// Where the module may be, in order: GPUHIST_IMAGES_MODULE when set (and
// nothing else then); beside the host file or one or two folders up (the
// build tree: build/, build/tests/, build/python/gpuhist/); LIBDIR/gpuhist/
// under the host's prefix (an installed tree, moved or not); where it is
// installed; and last its bare name, which the dynamic loader looks for on
// the program's run path (a program built with find_package(gpuhist) or
// pkg-config gets the installed module's folder there) and LD_LIBRARY_PATH.
std::vector<std::filesystem::path> candidates() {
  if (const char* chosen = std::getenv("GPUHIST_IMAGES_MODULE"); chosen && *chosen) {
    return {chosen};
  }
  std::vector<std::filesystem::path> found;
  if (const auto host = host_file(); !host.empty()) {
    const auto dir = host.parent_path();
    found.push_back(dir / kModule);
    found.push_back(dir.parent_path() / kModule);
    found.push_back(dir.parent_path().parent_path() / kModule);
    found.push_back(dir.parent_path() / GPUHIST_INSTALL_LIBDIR / "gpuhist" / kModule);
  }
  found.push_back(std::filesystem::path(GPUHIST_INSTALL_FULL_LIBDIR) / "gpuhist" / kModule);
  found.emplace_back(kModule);
  return found;
}

using Entry = const ImageLibrary* (*)(const ImageLibraryAbi*, core::PixelStore*);

const ImageLibrary* load(std::string& error) {
  static constexpr ImageLibraryAbi abi = image_library_abi();
  std::string looked;
  std::string other_build;
  for (const auto& path : candidates()) {
    std::error_code ec;
    const bool searched = !path.has_parent_path();  // by the dynamic loader
    if (!searched && !std::filesystem::exists(path, ec)) {
      looked += (looked.empty() ? "" : ", ") + path.string();
      continue;
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr && searched) {
      looked += (looked.empty() ? "" : ", ") + std::string("the library search path");
      continue;
    }
    if (handle == nullptr) {
      const char* cause = ::dlerror();
      error = "cannot load the image-file module: " + std::string(cause ? cause : path.string());
      return nullptr;
    }
    const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "gpuhist_image_library"));
    const ImageLibrary* library = entry ? entry(&abi, core::pixel_store()) : nullptr;
    if (library != nullptr) return library;  // kept loaded for the process's life
    ::dlclose(handle);
    if (other_build.empty()) other_build = path.string();
  }
  error = other_build.empty()
              ? std::string("cannot find the image-file module ") + kModule + " (looked for " +
                    looked + "; GPUHIST_IMAGES_MODULE names it)"
              : "the image-file module " + other_build + " is from another build of gpuhist";
  return nullptr;
}

}  // namespace

const ImageLibrary& image_library(ErrorKind kind) {
  static std::string error;
  static const ImageLibrary* const library = load(error);
  if (library == nullptr) throw Error(kind, error);
  return *library;
}

}  // namespace gpuhist::io
