// gpuhist::Error as Python exceptions: ValueError for bad arguments, OSError
// (FileNotFoundError for a missing file) for files, gpuhist.GpuError for the
// device.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <filesystem>
#include <utility>

namespace gpuhist::python {

void register_errors(pybind11::module_& m);

// The Python exception a C++ exception is raised as, made but not raised (a
// file's error in a batch): the mapping above, MemoryError for std::bad_alloc,
// RuntimeError for anything else. Call with the GIL held, after register_errors.
// With `file`, an OSError whose cause has an errno (ENOENT, EISDIR, EACCES,
// ENAMETOOLONG) is made as open() makes it: OSError(errno, strerror, filename),
// that is FileNotFoundError, IsADirectoryError, PermissionError, with
// `errno` and `filename` set.
[[nodiscard]] pybind11::object exception_object(const std::exception_ptr& error,
                                                const std::filesystem::path* file = nullptr);

// Runs `read` (which reads `file`) and raises what it throws as
// exception_object does with the file named.
template <typename Read>
auto reading(const std::filesystem::path& file, Read&& read) -> decltype(read()) {
  try {
    return std::forward<Read>(read)();
  } catch (const pybind11::error_already_set&) {
    throw;
  } catch (const pybind11::builtin_exception&) {
    throw;
  } catch (...) {
    // Interrupted (Ctrl-C while a read waited: "Interrupted system call"):
    // the signal's exception, not the read's.
    if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
    const pybind11::object raised = exception_object(std::current_exception(), &file);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(raised.ptr())), raised.ptr());
    throw pybind11::error_already_set();
  }
}

}  // namespace gpuhist::python
