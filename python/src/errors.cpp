#include "errors.hpp"

#include <Python.h>

#include <string>

#include "gpuhist/error.hpp"

namespace gpuhist::python {

void register_errors(pybind11::module_& m) {
  static pybind11::exception<Error> gpu_error(m, "GpuError", PyExc_RuntimeError);
  gpu_error.doc() =
      "No usable GPU device, or the device failed (lost, out of memory). A subclass of "
      "RuntimeError.";
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      switch (e.kind()) {
        case ErrorKind::InvalidArgument:
          PyErr_SetString(PyExc_ValueError, e.what());
          return;
        case ErrorKind::Input: {
          const std::string text = e.what();
          const bool missing = text.find("No such file") != std::string::npos ||
                               text.find("does not exist") != std::string::npos ||
                               text.find("no such file") != std::string::npos;
          PyErr_SetString(missing ? PyExc_FileNotFoundError : PyExc_OSError, e.what());
          return;
        }
        case ErrorKind::Output:
          PyErr_SetString(PyExc_OSError, e.what());
          return;
        case ErrorKind::Device:
          PyErr_SetString(gpu_error.ptr(), e.what());
          return;
      }
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace gpuhist::python
