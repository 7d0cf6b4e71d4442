// gpuhist::Error as Python exceptions: ValueError for bad arguments, OSError
// (FileNotFoundError for a missing file) for files, gpuhist.GpuError for the
// device.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>

namespace gpuhist::python {

void register_errors(pybind11::module_& m);

// The Python exception a C++ exception is raised as, made but not raised (a
// file's error in a batch): the mapping above, MemoryError for std::bad_alloc,
// RuntimeError for anything else. Call with the GIL held, after register_errors.
[[nodiscard]] pybind11::object exception_object(const std::exception_ptr& error);

}  // namespace gpuhist::python
