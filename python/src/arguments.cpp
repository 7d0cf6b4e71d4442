#include "arguments.hpp"

#include <cstring>
#include <string>

namespace py = pybind11;

namespace gpuhist::python {
namespace {

std::string type_name(py::handle object) {
  return py::str(py::type::handle_of(object).attr("__name__"));
}

}  // namespace

std::int64_t within(Whole w, const char* name, std::int64_t lo, std::int64_t hi) {
  if (w.value < lo || w.value > hi) {
    throw py::value_error("gpuhist: " + std::string(name) + " must be between " +
                          std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                          std::to_string(w.value));
  }
  return w.value;
}

void refuse_uninitialised(py::handle self) {
  throw py::type_error("gpuhist: this " + type_name(self) +
                       " was made by __new__ without __init__, and holds nothing");
}

}  // namespace gpuhist::python

namespace pybind11::detail {

bool type_caster<gpuhist::python::Whole>::load(handle src, bool /*convert*/) {
  if (PyBool_Check(src.ptr()) || PyIndex_Check(src.ptr()) == 0) {
    throw type_error("gpuhist: a whole number is needed, not " + gpuhist::python::type_name(src));
  }
  const auto number = reinterpret_steal<object>(PyNumber_Index(src.ptr()));
  if (!number) throw error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow != 0) {
    throw value_error("gpuhist: " + std::string(py::str(number)) + " is out of range");
  }
  if (v == -1 && PyErr_Occurred() != nullptr) throw error_already_set();
  value.value = v;
  return true;
}

bool type_caster<gpuhist::python::FilePath>::load(handle src, bool /*convert*/) {
  // os.fspath's rules: str, bytes, or an object whose __fspath__ gives one.
  const auto text = reinterpret_steal<object>(PyOS_FSPath(src.ptr()));
  if (!text) {
    PyErr_Clear();
    throw type_error("gpuhist: a path is a str, bytes or os.PathLike, not " +
                     gpuhist::python::type_name(src));
  }
  object bytes;
  if (PyUnicode_Check(text.ptr())) {
    // The file system's encoding with surrogateescape: names that are not UTF-8 too.
    bytes = reinterpret_steal<object>(PyUnicode_EncodeFSDefault(text.ptr()));
    if (!bytes) throw error_already_set();
  } else {
    bytes = text;
  }
  char* data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(bytes.ptr(), &data, &size) != 0) throw error_already_set();
  if (std::memchr(data, 0, static_cast<std::size_t>(size)) != nullptr) {
    throw value_error("gpuhist: embedded null byte in the path");
  }
  value.path = std::filesystem::path(std::string(data, static_cast<std::size_t>(size)));
  return true;
}

}  // namespace pybind11::detail
