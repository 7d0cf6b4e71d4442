#include "io/image_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

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

// The module GPUHIST_IMAGES_MODULE names, or null where it is unset or empty.
const char* chosen_module() {
  const char* chosen = std::getenv("GPUHIST_IMAGES_MODULE");
  return chosen != nullptr && *chosen != '\0' ? chosen : nullptr;
}

// Where the module may be, in order: GPUHIST_IMAGES_MODULE when set (and
// nothing else then); beside the host file or one or two folders up (the
// build tree: build/, build/tests/, build/python/gpuhist/); LIBDIR/gpuhist/
// under the host's prefix (an installed tree, moved or not); where it is
// installed; and last its bare name, which the dynamic loader looks for on
// the program's run path (a program built with find_package(gpuhist) or
// pkg-config gets the installed module's folder there) and LD_LIBRARY_PATH.
// A file found by its folder is loaded only where trusted() (load).
std::vector<std::filesystem::path> candidates() {
  if (const char* chosen = chosen_module()) return {chosen};
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

// Whether `st` is of a file only this user or root may change: owned by one
// of them, and not writable by others (a folder others may write to holds
// their files too, unless it is sticky, as /tmp is, where each keeps to
// their own).
bool only_ours(const struct stat& st) {
  const bool owner = st.st_uid == ::geteuid() || st.st_uid == 0;
  const bool others_write = (st.st_mode & S_IWOTH) != 0;
  return owner && (!others_write || (S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0));
}

// Whether the module at `path` may be loaded: it and the folder it is in are
// only this user's or root's to change. A folder beside or above a program
// may be another's (a program in /tmp/app/ looks in /tmp/): what another
// user put there is not run.
bool trusted(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::canonical(path, ec);
  if (ec) return false;
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !only_ours(st)) return false;
  return ::stat(file.parent_path().c_str(), &st) == 0 && only_ours(st);
}

using Entry = const ImageLibrary* (*)(const ImageLibraryAbi*, core::PixelStore*);

const ImageLibrary* load(std::string& error) {
  static constexpr ImageLibraryAbi abi = image_library_abi();
  std::string looked;
  std::string other_build;
  const bool chosen = chosen_module() != nullptr;
  for (const auto& path : candidates()) {
    std::error_code ec;
    const bool searched = !path.has_parent_path();  // by the dynamic loader
    if (!searched && !std::filesystem::exists(path, ec)) {
      looked += (looked.empty() ? "" : ", ") + path.string();
      continue;
    }
    // (The one GPUHIST_IMAGES_MODULE names is the user's choice.)
    if (!searched && !chosen && !trusted(path)) {
      looked += (looked.empty() ? "" : ", ") + path.string() +
                " (passed over: another user's, or others may change it)";
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
