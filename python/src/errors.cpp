#include "errors.hpp"

#include <Python.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "gpuhist/error.hpp"

namespace gpuhist::python {
namespace {

PyObject* gpu_error_type = nullptr;  // gpuhist.GpuError, kept alive by the module

PyObject* type_of(const Error& e) {
  switch (e.kind()) {
    case ErrorKind::InvalidArgument:
      return PyExc_ValueError;
    case ErrorKind::Input: {
      const std::string text = e.what();
      const bool missing = text.find("No such file") != std::string::npos ||
                           text.find("does not exist") != std::string::npos ||
                           text.find("no such file") != std::string::npos;
      return missing ? PyExc_FileNotFoundError : PyExc_OSError;
    }
    case ErrorKind::Output:
      return PyExc_OSError;
    case ErrorKind::Device:
      return gpu_error_type;
  }
  return PyExc_RuntimeError;
}

// The argument that gets past an error, as the functions name it.
std::string_view argument_for(Remedy remedy) {
  switch (remedy) {
    case Remedy::None:
      break;
    case Remedy::MaxPixels:
      return " (max_pixels)";
    case Remedy::AllFormats:
      return " (all_formats=True tries every format the image library reads)";
    case Remedy::CountRgb:
      return " (count it with space=\"rgb\" instead)";
    case Remedy::ReadAsVideo:
      return " (gpuhist.video reads videos)";
  }
  return {};
}

// The message with its remedy named as an argument, and powers written as
// Python writes them. A message naming a file need not be UTF-8: its
// undecodable bytes are shown as \xNN rather than losing the message.
PyObject* text_of(const char* what, Remedy remedy) {
  std::string text = what;
  static constexpr std::string_view kPower = "2^64", kPythonPower = "2**64";
  for (std::size_t at = text.find(kPower); at != std::string::npos;
       at = text.find(kPower, at + kPythonPower.size())) {
    text.replace(at, kPower.size(), kPythonPower);
  }
  text += argument_for(remedy);
  return PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()),
                              "backslashreplace");
}

// The errno a file's error names at its end ("PATH: no such file"), or 0.
int errno_of(const std::string& what) {
  const auto ends = [&](const char* cause) {
    const std::size_t n = std::strlen(cause);
    return what.size() >= n && what.compare(what.size() - n, n, cause) == 0;
  };
  if (ends("no such file")) return ENOENT;
  if (ends("is a directory")) return EISDIR;
  if (ends("not a directory")) return ENOTDIR;
  if (ends("file name too long")) return ENAMETOOLONG;
  if (ends("too many levels of symbolic links")) return ELOOP;
  if (ends("ermission denied")) return EACCES;
  return 0;
}

struct Raised {
  PyObject* type;
  const char* what;
  Remedy remedy = Remedy::None;
};

Raised classify(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    return {type_of(e), e.what(), e.remedy()};
  } catch (const std::bad_alloc&) {
    return {PyExc_MemoryError, "gpuhist: not enough memory"};
  } catch (const std::exception& e) {
    return {PyExc_RuntimeError, e.what()};
  } catch (...) {
    return {PyExc_RuntimeError, "gpuhist: unknown error"};
  }
}

}  // namespace

void register_errors(pybind11::module_& m) {
  static pybind11::exception<Error> gpu_error(m, "GpuError", PyExc_RuntimeError);
  gpu_error.doc() =
      "No usable GPU device, or the device failed (lost, out of memory). A subclass of "
      "RuntimeError.";
  gpu_error_type = gpu_error.ptr();
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      // A call that failed as a signal came (a read interrupted by Ctrl-C)
      // raises the signal's exception.
      if (PyErr_CheckSignals() != 0) return;
      // Arguments and devices are the module's own errors, said as its others
      // are; a file's error keeps the "PATH: cause" form open() gives.
      std::string what = e.what();
      const bool own = e.kind() == ErrorKind::InvalidArgument || e.kind() == ErrorKind::Device;
      if (own && what.rfind("gpuhist: ", 0) != 0) what.insert(0, "gpuhist: ");
      PyObject* text = text_of(what.c_str(), e.remedy());
      if (text == nullptr) return;  // the decoding error stands
      PyErr_SetObject(type_of(e), text);
      Py_DECREF(text);
    }
  });
}

pybind11::object exception_object(const std::exception_ptr& error,
                                  const std::filesystem::path* file) {
  const Raised raised = classify(error);
  const pybind11::object text =
      pybind11::reinterpret_steal<pybind11::object>(text_of(raised.what, raised.remedy));
  if (!text) throw pybind11::error_already_set();
  PyObject* made = PyObject_CallOneArg(raised.type, text.ptr());
  if (made == nullptr) throw pybind11::error_already_set();
  auto out = pybind11::reinterpret_steal<pybind11::object>(made);
  // A cause with an errno is raised as open() raises it: OSError(errno,
  // strerror, filename), which is FileNotFoundError, IsADirectoryError, ….
  const bool os_error = file != nullptr && PyObject_IsInstance(made, PyExc_OSError) == 1;
  if (!os_error) return out;
  const auto name = pybind11::reinterpret_steal<pybind11::object>(PyUnicode_DecodeFSDefaultAndSize(
      file->c_str(), static_cast<Py_ssize_t>(file->native().size())));
  if (!name) throw pybind11::error_already_set();
  // (No errno, no filename: OSError's str() would then read
  // "[Errno None] None: 'NAME'"; the message names the file.)
  const int number = errno_of(raised.what);
  if (number != 0) {
    PyObject* with_errno =
        PyObject_CallFunction(PyExc_OSError, "isO", number, std::strerror(number), name.ptr());
    if (with_errno == nullptr) throw pybind11::error_already_set();
    out = pybind11::reinterpret_steal<pybind11::object>(with_errno);
  }
  return out;
}

}  // namespace gpuhist::python
