// Arguments as Python callers pass them, checked with Python's errors rather
// than pybind11's "incompatible function arguments":
// - Whole: any integer (int, a numpy integer: anything with __index__), not a
//   bool or a float (TypeError); each function checks its own range
//   (ValueError naming the argument).
// - Name: a str, or a whole number as its digits (luma=601, device=0).
// - ChannelNames: a channel's name, or a sequence of names (TypeError
//   otherwise, a str's characters never taken for names).
// - Percentiles: a number, or a sequence of numbers (TypeError otherwise).
// - FilePath: str (non-UTF-8 names included), bytes or os.PathLike (TypeError
//   otherwise); an embedded NUL is a ValueError, as Python's open() says.
// - The module's classes refuse an object made by cls.__new__(cls) without
//   __init__ (TypeError) where it would otherwise be read uninitialised.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpuhist::python {

// A whole number; one beyond 64 bits is kept as the nearest 64-bit value
// with `beyond` set, and refused by within().
struct Whole {
  std::int64_t value = 0;
  bool beyond = false;
};

// `w` within [lo, hi], else ValueError "gpuhist: NAME must be between LO and HI, got W".
[[nodiscard]] std::int64_t within(Whole w, const char* name, std::int64_t lo, std::int64_t hi);

// A real number: an int or a float (anything with __float__), not a bool.
struct Real {
  double value = 0.0;
  // NOLINTNEXTLINE(google-explicit-constructor): read as the number it holds
  operator double() const noexcept { return value; }
};

// Two whole numbers, (X, Y): any sequence of two but a str or bytes.
struct WholePair {
  Whole first, second;
};

struct FilePath {
  std::filesystem::path path;
};

// The channels to draw: "red", or ["red", "luminance"].
struct ChannelNames {
  std::vector<std::string> names;
};

// The percentiles asked for: 50, or [5, 50, 99.9].
struct Percentiles {
  std::vector<double> values;
};

// A name that may be written as a number: `luma` ("709" or 709) and `device`
// ("auto", "cpu", a piece of a device's name, or an index: "0" or 0). A str,
// or a whole number (not a bool), which is taken as its decimal digits.
struct Name {
  std::string value;
  // NOLINTNEXTLINE(google-explicit-constructor): read as the string it holds
  operator const std::string&() const noexcept { return value; }
};

// An image argument: any object, checked by ArrayPixels; named ArrayLike in
// signatures (help(), the stub), where a bare handle would read "handle".
inline bool any_object(PyObject* /*object*/) { return true; }
class ArrayLike : public pybind11::object {
 public:
  PYBIND11_OBJECT_DEFAULT(ArrayLike, pybind11::object, any_object)
};

// TypeError naming the class of an object made without __init__.
[[noreturn]] void refuse_uninitialised(pybind11::handle self);

}  // namespace gpuhist::python

// The casters raise their errors from load() rather than returning false:
// none of the module's functions is overloaded, and a false would give
// pybind11's "incompatible function arguments" list instead of the cause.
namespace pybind11::detail {

template <>
struct handle_type_name<gpuhist::python::ArrayLike> {
  static constexpr auto name = const_name("ArrayLike");
};

template <>
struct type_caster<gpuhist::python::Whole> {
  PYBIND11_TYPE_CASTER(gpuhist::python::Whole, const_name("int"));
  bool load(handle src, bool convert);
  static handle cast(gpuhist::python::Whole w, return_value_policy /*policy*/, handle /*parent*/) {
    return PyLong_FromLongLong(w.value);
  }
};

template <>
struct type_caster<gpuhist::python::Real> {
  PYBIND11_TYPE_CASTER(gpuhist::python::Real, const_name("float"));
  bool load(handle src, bool convert);
  static handle cast(gpuhist::python::Real r, return_value_policy /*policy*/, handle /*parent*/) {
    return PyFloat_FromDouble(r.value);
  }
};

template <>
struct type_caster<gpuhist::python::WholePair> {
  PYBIND11_TYPE_CASTER(gpuhist::python::WholePair, const_name("Tuple[int, int]"));
  bool load(handle src, bool convert);
  static handle cast(gpuhist::python::WholePair p, return_value_policy /*policy*/,
                     handle /*parent*/) {
    return make_tuple(p.first.value, p.second.value).release();
  }
};

template <>
struct type_caster<gpuhist::python::Name> {
  PYBIND11_TYPE_CASTER(gpuhist::python::Name, const_name("Union[str, int]"));
  bool load(handle src, bool convert);
  static handle cast(const gpuhist::python::Name& n, return_value_policy /*policy*/,
                     handle /*parent*/) {
    return PyUnicode_FromStringAndSize(n.value.data(), static_cast<ssize_t>(n.value.size()));
  }
};

template <>
struct type_caster<gpuhist::python::ChannelNames> {
  PYBIND11_TYPE_CASTER(gpuhist::python::ChannelNames, const_name("Union[str, Sequence[str]]"));
  bool load(handle src, bool convert);
  static handle cast(const gpuhist::python::ChannelNames& c, return_value_policy /*policy*/,
                     handle /*parent*/) {
    list out;
    for (const std::string& name : c.names) out.append(str(name));
    return out.release();
  }
};

template <>
struct type_caster<gpuhist::python::Percentiles> {
  PYBIND11_TYPE_CASTER(gpuhist::python::Percentiles, const_name("Union[float, Sequence[float]]"));
  bool load(handle src, bool convert);
  static handle cast(const gpuhist::python::Percentiles& p, return_value_policy /*policy*/,
                     handle /*parent*/) {
    list out;
    for (const double v : p.values) out.append(float_(v));
    return out.release();
  }
};

template <>
struct type_caster<gpuhist::python::FilePath> {
  PYBIND11_TYPE_CASTER(gpuhist::python::FilePath, const_name("os.PathLike"));
  bool load(handle src, bool convert);
  static handle cast(const gpuhist::python::FilePath& p, return_value_policy /*policy*/,
                     handle /*parent*/) {
    const std::string& bytes = p.path.native();
    return PyUnicode_DecodeFSDefaultAndSize(bytes.data(), static_cast<ssize_t>(bytes.size()));
  }
};

// The caster of a bound class whose instances must have run __init__:
// pybind11 hands the methods of `cls.__new__(cls)` raw, unmade memory.
template <typename T>
struct initialised_caster : type_caster_base<T> {
  bool load(handle src, bool convert) {
    if (isinstance<T>(src)) {
      // The instance's own value (that of a subclass, such as PlaneHistogram's).
      auto* made = reinterpret_cast<instance*>(src.ptr());
      if (!made->get_value_and_holder().holder_constructed()) {
        gpuhist::python::refuse_uninitialised(src);
      }
    }
    return type_caster_base<T>::load(src, convert);
  }
};

}  // namespace pybind11::detail

// Declares that the module's class T refuses uninitialised objects; in the
// header that every file binding or casting T includes, at namespace scope.
#define GPUHIST_PYTHON_INITIALISED(T)                     \
  namespace pybind11::detail {                            \
  template <>                                             \
  class type_caster<T> : public initialised_caster<T> {}; \
  }
