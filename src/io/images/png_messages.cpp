// libpng's error messages kept off the process's stderr.
//
// OpenImageIO gives libpng an error function that records the message for
// the reader's error and returns; libpng then takes its default path, which
// prints "libpng error: MESSAGE" on stderr before it gives up on the file. In
// the command line stderr is silenced while decoding; in Python and on Dask
// workers that line was a second report of the file's error, without its
// name. This module defines png_set_error_fn itself (exported by the module's
// version script): OpenImageIO, loaded with the module, binds to it ahead of
// libpng, and each error function it sets is wrapped in one that calls it and
// then gives up on the file as libpng's default does, but without printing.
// That is the reader's: OpenImageIO's writer hands its function to
// png_create_write_struct alone, which sets it inside libpng, so a write that
// fails still prints libpng's line. Where the binding goes to libpng instead
// (libpng already in the process's global scope: a program linked with the io
// layer, which links libpng itself, as the command line is, whose stderr is
// silenced while decoding), messages are printed as before; nothing else
// changes. It takes effect where the io layer is loaded without the global
// scope (the Python module, which Python loads RTLD_LOCAL).
#include <dlfcn.h>
#include <png.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <utility>

namespace gpuhist::images {
namespace {

using SetErrorFn = void (*)(png_structp, png_voidp, png_error_ptr, png_error_ptr);
using LongJmp = void (*)(png_const_structrp, int);

// libpng's own functions, found after this module in the lookup order.
template <typename Function>
Function next_symbol(const char* name) noexcept {
  return reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));
}

SetErrorFn real_set_error_fn() noexcept {
  static const SetErrorFn function = next_symbol<SetErrorFn>("png_set_error_fn");
  return function;
}

LongJmp real_longjmp() noexcept {
  static const LongJmp function = next_symbol<LongJmp>("png_longjmp");
  return function;
}

// The error functions wrapped, one slot each: a process sets few of them
// (OpenImageIO's reader's and writer's). A function past the last slot is
// set unwrapped.
constexpr std::size_t kSlots = 8;
std::array<std::atomic<png_error_ptr>, kSlots> originals{};

template <std::size_t Slot>
void quiet_error(png_structp png, png_const_charp message) {
  originals[Slot].load(std::memory_order_acquire)(png, message);
  // The original returned: give up on the file as png_default_error does
  // after printing (a longjmp to the reader's setjmp; abort without one).
  real_longjmp()(png, 1);
}

template <std::size_t... Slot>
constexpr std::array<png_error_ptr, kSlots> make_wrappers(std::index_sequence<Slot...>) {
  return {&quiet_error<Slot>...};
}
constexpr std::array<png_error_ptr, kSlots> wrappers =
    make_wrappers(std::make_index_sequence<kSlots>{});

// The wrapper of `original`, taking a free slot the first time; `original`
// itself where every slot is taken or libpng's png_longjmp is not found.
png_error_ptr wrapper_of(png_error_ptr original) noexcept {
  if (original == nullptr || real_longjmp() == nullptr) return original;
  for (std::size_t slot = 0; slot < kSlots; ++slot) {
    png_error_ptr held = originals[slot].load(std::memory_order_acquire);
    if (held == nullptr &&
        originals[slot].compare_exchange_strong(held, original, std::memory_order_acq_rel)) {
      return wrappers[slot];
    }
    if (held == original) return wrappers[slot];
  }
  return original;
}

}  // namespace

}  // namespace gpuhist::images

// NOLINTNEXTLINE(readability-identifier-naming): libpng's name
extern "C" __attribute__((visibility("default"))) void png_set_error_fn(
    png_structrp png, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warning_fn) {
  const auto real = gpuhist::images::real_set_error_fn();
  if (real == nullptr) return;
  real(png, error_ptr, gpuhist::images::wrapper_of(error_fn), warning_fn);
}
