#include "arguments.hpp"

#include <cstdint>
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
  if (w.beyond || w.value < lo || w.value > hi) {
    const std::string got = !w.beyond     ? std::to_string(w.value)
                            : w.value < 0 ? "a number below -2^63"
                                          : "a number of 2^63 or more";
    throw py::value_error("gpuhist: " + std::string(name) + " must be between " +
                          std::to_string(lo) + " and " + std::to_string(hi) + ", got " + got);
  }
  return w.value;
}

void refuse_uninitialised(py::handle self) {
  throw py::type_error("gpuhist: this " + type_name(self) +
                       " was made by __new__ without __init__, and holds nothing");
}

}  // namespace gpuhist::python

namespace pybind11::detail {

namespace {
// numpy's bool scalar, which numpy still lets pass as an index: numpy.bool_
// (numpy 1), numpy.bool (numpy 2).
bool is_numpy_bool(handle src) {
  const char* name = Py_TYPE(src.ptr())->tp_name;
  return std::strcmp(name, "numpy.bool_") == 0 || std::strcmp(name, "numpy.bool") == 0;
}

// `src` as a Python int: any integer (anything with __index__) but a bool,
// else TypeError "gpuhist: NEEDED, not TYPE".
object whole_number(handle src, const char* needed) {
  if (PyBool_Check(src.ptr()) || is_numpy_bool(src) || PyIndex_Check(src.ptr()) == 0) {
    throw type_error(std::string("gpuhist: ") + needed + ", not " +
                     gpuhist::python::type_name(src));
  }
  auto number = reinterpret_steal<object>(PyNumber_Index(src.ptr()));
  if (!number) throw error_already_set();
  return number;
}
}  // namespace

bool type_caster<gpuhist::python::Whole>::load(handle src, bool /*convert*/) {
  const object number = whole_number(src, "a whole number is needed");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred() != nullptr) throw error_already_set();
  value.beyond = overflow != 0;
  value.value = overflow < 0 ? INT64_MIN : overflow > 0 ? INT64_MAX : v;
  return true;
}

bool type_caster<gpuhist::python::Real>::load(handle src, bool /*convert*/) {
  if (PyBool_Check(src.ptr()) || is_numpy_bool(src) ||
      (PyFloat_Check(src.ptr()) == 0 && PyIndex_Check(src.ptr()) == 0 &&
       Py_TYPE(src.ptr())->tp_as_number == nullptr) ||
      PyUnicode_Check(src.ptr()) != 0) {
    throw type_error("gpuhist: a number is needed, not " + gpuhist::python::type_name(src));
  }
  const double v = PyFloat_AsDouble(src.ptr());
  if (v == -1.0 && PyErr_Occurred() != nullptr) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      throw value_error("gpuhist: a number is needed, and " + std::string(str(src)).substr(0, 20) +
                        "… is past a float's range");
    }
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw error_already_set();
    PyErr_Clear();
    throw type_error("gpuhist: a number is needed, not " + gpuhist::python::type_name(src));
  }
  value.value = v;
  return true;
}

bool type_caster<gpuhist::python::WholePair>::load(handle src, bool convert) {
  const auto refuse = [&](const std::string& what) {
    throw type_error("gpuhist: a pair of whole numbers (X, Y) is needed, not " + what);
  };
  // Any sequence of two (a tuple, a list, a numpy array, a range), not a str or bytes.
  if (PySequence_Check(src.ptr()) == 0 || PyUnicode_Check(src.ptr()) != 0 ||
      PyBytes_Check(src.ptr()) != 0 || PyByteArray_Check(src.ptr()) != 0) {
    refuse(gpuhist::python::type_name(src));
  }
  const auto items = reinterpret_borrow<sequence>(src);
  if (items.size() != 2) {
    refuse("a " + gpuhist::python::type_name(src) + " of " + std::to_string(items.size()));
  }
  type_caster<gpuhist::python::Whole> x, y;
  (void)x.load(items[0], convert);
  (void)y.load(items[1], convert);
  value.first = x;
  value.second = y;
  return true;
}

bool type_caster<gpuhist::python::Name>::load(handle src, bool /*convert*/) {
  if (PyUnicode_Check(src.ptr()) != 0) {
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(src.ptr(), &size);
    if (text == nullptr) throw error_already_set();
    value.value.assign(text, static_cast<std::size_t>(size));
    return true;
  }
  value.value = str(whole_number(src,
                                 "a luma or device is a str (luma '709' or '601', device 'auto', "
                                 "'cpu' or part of a name) or a whole number"))
                    .cast<std::string>();
  return true;
}

bool type_caster<gpuhist::python::ChannelNames>::load(handle src, bool /*convert*/) {
  const auto refuse = [&](const std::string& what) {
    throw type_error(
        "gpuhist: channels is a channel's name or a list of them ('red', 'green', 'blue', "
        "'luminance'; a plane's 'y', 'cb', 'cr'), not " +
        what);
  };
  value.names.clear();
  if (PyUnicode_Check(src.ptr()) != 0) {
    value.names.push_back(src.cast<std::string>());
    return true;
  }
  if (PySequence_Check(src.ptr()) == 0 || PyBytes_Check(src.ptr()) != 0 ||
      PyByteArray_Check(src.ptr()) != 0) {
    refuse(gpuhist::python::type_name(src));
  }
  // Each item held while it is read: a sequence may make its items as they
  // are asked for (a numpy array of str), and an accessor's reference goes
  // with the statement.
  const auto names = reinterpret_borrow<sequence>(src);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const object item = names[i];
    if (PyUnicode_Check(item.ptr()) == 0) {
      refuse("a " + gpuhist::python::type_name(src) + " holding " +
             gpuhist::python::type_name(item));
    }
    value.names.push_back(item.cast<std::string>());
  }
  return true;
}

bool type_caster<gpuhist::python::Percentiles>::load(handle src, bool convert) {
  value.values.clear();
  // A sequence of numbers (a list, a tuple, a numpy array), not a str or bytes.
  const bool sequence_given = PySequence_Check(src.ptr()) != 0 && PyUnicode_Check(src.ptr()) == 0 &&
                              PyBytes_Check(src.ptr()) == 0 && PyByteArray_Check(src.ptr()) == 0;
  type_caster<gpuhist::python::Real> number;
  if (!sequence_given) {
    if (PyUnicode_Check(src.ptr()) != 0 || PyBytes_Check(src.ptr()) != 0) {
      throw type_error("gpuhist: percentiles is a number or a list of numbers, not " +
                       gpuhist::python::type_name(src));
    }
    (void)number.load(src, convert);  // (TypeError for what is no number)
    value.values.push_back(static_cast<gpuhist::python::Real&>(number).value);
    return true;
  }
  const auto items = reinterpret_borrow<sequence>(src);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const object item = items[i];
    (void)number.load(item, convert);
    value.values.push_back(static_cast<gpuhist::python::Real&>(number).value);
  }
  return true;
}

bool type_caster<gpuhist::python::FilePath>::load(handle src, bool /*convert*/) {
  // os.fspath's rules: str, bytes, or an object whose __fspath__ gives one.
  const auto text = reinterpret_steal<object>(PyOS_FSPath(src.ptr()));
  if (!text) {
    // What __fspath__ itself raised (a KeyboardInterrupt, a bug of its own) goes on.
    error_already_set raised;  // taken: no error is pending below
    if (!raised.matches(PyExc_TypeError) ||
        PyObject_HasAttrString(reinterpret_cast<PyObject*>(Py_TYPE(src.ptr())), "__fspath__") !=
            0) {
      throw raised;
    }
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
