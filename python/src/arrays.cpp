#include "arrays.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <utility>

#include "gpuhist/error.hpp"

namespace py = pybind11;

namespace gpuhist::python {
namespace {

// DLPack's device types that the host can read, as numpy takes them: the CPU,
// CUDA's pinned host memory, ROCm's, and CUDA's managed memory.
bool host_readable(int device_type) {
  return device_type == 1 || device_type == 3 || device_type == 11 || device_type == 13;
}

// A DLPack producer's tensor as a numpy array sharing its memory. A tensor on
// a GPU is refused before it is exported (numpy could not read it anyway).
py::object from_dlpack(const py::handle& tensor) {
  if (py::hasattr(tensor, "__dlpack_device__")) {
    // (device type, device id), as the DLPack protocol has it.
    const py::object answer = tensor.attr("__dlpack_device__")();
    // A whole number as operator.index takes one (numpy's too), not a bool.
    const auto whole = [](const py::handle& v) {
      return PyIndex_Check(v.ptr()) != 0 && !PyBool_Check(v.ptr());
    };
    if (!py::isinstance<py::tuple>(answer) || py::len(answer) != 2 || !whole(answer[py::int_(0)])) {
      throw py::type_error("gpuhist: __dlpack_device__() gave " +
                           std::string(py::str(py::repr(answer))) +
                           ", not a (device type, device id) tuple");
    }
    long long type = -1;  // past long long: no device type
    try {
      PyObject* index = PyNumber_Index(answer[py::int_(0)].ptr());
      if (index == nullptr) throw py::error_already_set();  // its __index__ raised
      type = py::reinterpret_steal<py::int_>(index).cast<long long>();
    } catch (const py::cast_error&) {
    }
    if (!host_readable(static_cast<int>(std::clamp<long long>(type, -1, 1000)))) {
      throw py::type_error("gpuhist: the tensor is on a device the host cannot read (DLPack device type " +
                           std::to_string(type) + "): move it to the CPU first (tensor.cpu())");
    }
  }
  const py::module_ numpy = py::module_::import("numpy");
  if (!py::hasattr(numpy, "from_dlpack")) {
    return numpy.attr("asarray")(tensor);  // numpy before 1.22
  }
  try {
    return numpy.attr("from_dlpack")(tensor);
  } catch (py::error_already_set& e) {
    // KeyboardInterrupt, MemoryError and TypeError go on as they are.
    if (!e.matches(PyExc_Exception) || e.matches(PyExc_MemoryError) || e.matches(PyExc_TypeError)) {
      throw;
    }
    // numpy's BufferError / RuntimeError (a dtype, layout or flag DLPack cannot
    // export, such as a read-only array): what numpy.asarray makes of it (its
    // __array__ or __array_interface__), if that is an array of numbers.
    const std::string cause = py::str(e.value());
    try {
      py::object array = numpy.attr("asarray")(tensor);
      if (py::str(array.attr("dtype").attr("kind")).cast<std::string>() != "O") return array;
    } catch (py::error_already_set& again) {
      if (!again.matches(PyExc_Exception) || again.matches(PyExc_MemoryError)) throw;
    }
    throw py::type_error("gpuhist: cannot read the tensor through DLPack: " + cause);
  }
}

constexpr const char* kDtypes =
    "gpuhist: images must be uint8, uint16 or float32 (native byte order), not ";
constexpr const char* kArrays =
    "gpuhist: images are arrays (numpy, the buffer protocol or DLPack), not ";
constexpr const char* kIntegerDtypes =
    "gpuhist: adjustments take uint8 or uint16 images (native byte order), not ";

// numpy's name of a buffer's sample type ("int64", "float64", ">u2", …), from
// the object itself where it has a dtype, else from the buffer's format.
std::string dtype_text(const py::handle& source) {
  try {
    if (py::hasattr(source, "dtype")) return py::str(source.attr("dtype"));
    const py::module_ numpy = py::module_::import("numpy");
    return py::str(numpy.attr("asarray")(py::memoryview(py::reinterpret_borrow<py::object>(source)))
                       .attr("dtype"));
  } catch (py::error_already_set&) {
    return "'" + std::string(py::str(py::type::handle_of(source).attr("__name__"))) + "'";
  }
}

// The buffer of `source`; a dtype that has no buffer form (datetime64) is a TypeError.
py::buffer_info buffer_of(const py::handle& source) {
  try {
    return py::reinterpret_borrow<py::buffer>(source).request();
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ValueError) && !e.matches(PyExc_BufferError)) throw;
    if (!py::hasattr(source, "dtype")) throw;
    throw py::type_error(kDtypes + dtype_text(source));
  }
}

struct Requested {
  py::object source;  // what has the buffer: the array, or numpy's view of it
  py::buffer_info info;
};

Requested request(const py::handle& array, ArrayPixels::Dtypes accepted) {
  if (PyUnicode_Check(array.ptr()) != 0 || py::hasattr(array, "__fspath__")) {
    throw py::type_error(std::string(kArrays) +
                         "a path: gpuhist.histogram_file(path) counts a file, gpuhist.read(path) "
                         "reads it");
  }
  if (array.is_none()) {
    throw py::type_error(std::string(kArrays) + "None");
  }
  if (PyObject_CheckBuffer(array.ptr()) == 0) {
    // DLPack producers (PyTorch, JAX, CuPy tensors) in place; other array-likes
    // (__array_interface__, __array__) through numpy.asarray, which shares their
    // memory where it can.
    py::object shared = py::hasattr(array, "__dlpack__")
                            ? from_dlpack(array)
                            : py::module_::import("numpy").attr("asarray")(array);
    // A list of Python numbers becomes int64 or float64, which no image is.
    if (PyList_Check(array.ptr()) != 0 || PyTuple_Check(array.ptr()) != 0) {
      const std::string dtype = py::str(shared.attr("dtype"));
      const bool any = accepted == ArrayPixels::Dtypes::Any;
      if (dtype != "uint8" && dtype != "uint16" && (dtype != "float32" || !any)) {
        const bool floats = any && dtype.rfind("float", 0) == 0;
        throw py::type_error(std::string(any ? kDtypes : kIntegerDtypes) + dtype + ": a " +
                             std::string(py::str(py::type::handle_of(array).attr("__name__"))) +
                             " of Python numbers is " + dtype +
                             " to numpy; numpy.asarray(x, dtype=numpy." +
                             (floats ? "float32" : "uint8") + ") makes an image of it");
      }
    }
    if (PyObject_CheckBuffer(shared.ptr()) == 0) {
      throw py::type_error(kArrays +
                           std::string(py::str(py::type::handle_of(array).attr("__name__"))));
    }
    py::buffer_info info = buffer_of(shared);
    return {std::move(shared), std::move(info)};
  }
  return {py::reinterpret_borrow<py::object>(array), buffer_of(array)};
}

// Whether `rows` x `columns` pixels of `channels` samples of `item` bytes at
// `base`, by these strides in bytes, can be read in place: packed pixels, rows
// forward, apart by whole samples, not overlapping, the first aligned.
bool readable_in_place(const void* base, std::size_t rows, std::size_t columns,
                       std::size_t channels, std::ptrdiff_t item, std::ptrdiff_t row_stride,
                       std::ptrdiff_t column_stride, std::ptrdiff_t channel_stride) {
  const auto pixel = static_cast<std::ptrdiff_t>(channels) * item;
  const bool packed_row =
      (channels == 1 || channel_stride == item) && (columns == 1 || column_stride == pixel);
  const auto row_bytes = pixel * static_cast<std::ptrdiff_t>(columns);
  const bool rows_apart = rows == 1 || (row_stride >= row_bytes && row_stride % item == 0);
  return packed_row && rows_apart &&
         reinterpret_cast<std::uintptr_t>(base) % static_cast<std::uintptr_t>(item) == 0;
}

// Copies those pixels into packed rows at `to`.
void copy_packed(const std::byte* from, std::size_t rows, std::size_t columns, std::size_t channels,
                 std::size_t item, std::ptrdiff_t row_stride, std::ptrdiff_t column_stride,
                 std::ptrdiff_t channel_stride, std::byte* to) {
  for (std::size_t y = 0; y < rows; ++y) {
    const std::byte* row = from + static_cast<std::ptrdiff_t>(y) * row_stride;
    for (std::size_t x = 0; x < columns; ++x) {
      const std::byte* in = row + static_cast<std::ptrdiff_t>(x) * column_stride;
      for (std::size_t c = 0; c < channels; ++c, to += item) {
        std::memcpy(to, in + static_cast<std::ptrdiff_t>(c) * channel_stride, item);
      }
    }
  }
}

// One of the buffer protocol's codes for the native-order type `code`: "B",
// "@B", "=B" (and "<B" on this little-endian target).
bool is(const std::string& format, char code) {
  static_assert(std::endian::native == std::endian::little, "'<' is taken as native order");
  if (format.size() == 1) return format[0] == code;
  return format.size() == 2 && format[1] == code &&
         (format[0] == '@' || format[0] == '=' || format[0] == '<');
}

SampleType sample_of(const Requested& r, ArrayPixels::Dtypes accepted) {
  const py::buffer_info& info = r.info;
  if (info.itemsize == 1 && is(info.format, 'B')) return SampleType::U8;
  if (info.itemsize == 2 && is(info.format, 'H')) return SampleType::U16;
  if (accepted == ArrayPixels::Dtypes::Any && info.itemsize == 4 && is(info.format, 'f')) {
    return SampleType::F32;
  }
  throw py::type_error((accepted == ArrayPixels::Dtypes::Any ? kDtypes : kIntegerDtypes) +
                       dtype_text(r.source));
}

}  // namespace

ArrayPixels::ArrayPixels(const py::handle& array, Dtypes accepted) {
  Requested requested = request(array, accepted);
  const SampleType sample = sample_of(requested, accepted);
  info_ = std::move(requested.info);
  if (info_.ndim != 2 && info_.ndim != 3) {
    throw py::type_error(
        "gpuhist: images are (H, W), (H, W, 1), (H, W, 3) or (H, W, 4) arrays, not " +
        std::to_string(info_.ndim) + "-dimensional");
  }
  const py::ssize_t channels = info_.ndim == 3 ? info_.shape[2] : 1;
  ChannelLayout layout = ChannelLayout::Grey;
  if (channels == 3) {
    layout = ChannelLayout::RGB;
  } else if (channels == 4) {
    layout = ChannelLayout::RGBA;
  } else if (channels != 1) {
    throw py::type_error("gpuhist: an image has 1, 3 or 4 channels, not " +
                         std::to_string(channels));
  }
  const py::ssize_t height = info_.shape[0];
  const py::ssize_t width = info_.shape[1];
  if (height <= 0 || width <= 0) {
    // No pixels: a histogram of them is all zeros; nothing is read.
    view_ = ImageView{nullptr, 0, 0, 0, {layout, sample}};
    empty_ = true;
    return;
  }
  if (height > 0xFFFFFFFF || width > 0xFFFFFFFF) {
    throw py::value_error("gpuhist: the image is too large");
  }
  const auto item = static_cast<py::ssize_t>(info_.itemsize);
  const py::ssize_t row_stride = info_.strides[0];
  const py::ssize_t row_bytes = item * channels * width;
  needs_copy_ =
      !readable_in_place(info_.ptr, static_cast<std::size_t>(height),
                         static_cast<std::size_t>(width), static_cast<std::size_t>(channels), item,
                         row_stride, info_.strides[1], info_.ndim == 3 ? info_.strides[2] : item);
  const PixelFormat format{layout, sample};
  view_.width = static_cast<std::uint32_t>(width);
  view_.height = static_cast<std::uint32_t>(height);
  view_.format = format;
  if (!needs_copy_) {
    view_.data = info_.ptr;
    view_.stride =
        height > 1 ? static_cast<std::size_t>(row_stride) : static_cast<std::size_t>(row_bytes);
  }
  plan_counting();
}

void ArrayPixels::plan_counting() {
  const auto item = static_cast<std::ptrdiff_t>(info_.itemsize);
  const std::size_t channels = info_.ndim == 3 ? static_cast<std::size_t>(info_.shape[2]) : 1;
  const auto pixel = static_cast<std::ptrdiff_t>(channels) * item;
  base_ = static_cast<const std::byte*>(info_.ptr);
  rows_ = view_.height;
  columns_ = view_.width;
  row_stride_ = rows_ > 1 ? info_.strides[0] : 0;
  column_stride_ = columns_ > 1 ? info_.strides[1] : pixel;
  channel_stride_ = channels > 1 ? info_.strides[2] : item;
  // Rows or columns all alike: one, counted `times` times.
  if (rows_ > 1 && row_stride_ == 0) {
    counted_.times *= rows_;
    rows_ = 1;
  }
  if (columns_ > 1 && column_stride_ == 0) {
    counted_.times *= columns_;
    columns_ = 1;
    column_stride_ = pixel;
  }
  // Rows reversed: read from the last up.
  if (rows_ > 1 && row_stride_ < 0) {
    base_ += static_cast<std::ptrdiff_t>(rows_ - 1) * row_stride_;
    row_stride_ = -row_stride_;
  }
  in_place_ = readable_in_place(base_, rows_, columns_, channels, item, row_stride_, column_stride_,
                                channel_stride_);
  if (in_place_ || empty_) return;
  const auto row = static_cast<std::size_t>(pixel) * columns_;
  if (row <= kBlockBytes) {
    rows_per_block_ = static_cast<std::uint32_t>(std::min<std::size_t>(rows_, kBlockBytes / row));
    counted_.blocks = (rows_ + rows_per_block_ - 1) / rows_per_block_;
  } else {
    columns_per_block_ = static_cast<std::uint32_t>(kBlockBytes / static_cast<std::size_t>(pixel));
    const std::size_t per_row = (columns_ + columns_per_block_ - 1) / columns_per_block_;
    counted_.blocks = rows_ * per_row;
  }
}

ImageView ArrayPixels::block(std::size_t i) {
  ImageView out{nullptr, columns_, rows_, 0, view_.format};
  const std::size_t item = static_cast<std::size_t>(info_.itemsize);
  const std::size_t channels = channel_count(view_.format.layout);
  const std::size_t pixel = item * channels;
  if (in_place_) {
    out.data = base_;
    out.stride = rows_ > 1 ? static_cast<std::size_t>(row_stride_) : columns_ * pixel;
    return out;
  }
  // Rows [y0, y0 + rows) and columns [x0, x0 + columns) of the plan, packed.
  std::uint32_t y0 = 0, x0 = 0;
  if (rows_per_block_ != 0) {
    y0 = static_cast<std::uint32_t>(i * rows_per_block_);
    out.height = std::min(rows_per_block_, rows_ - y0);
  } else {
    const std::size_t per_row = (columns_ + columns_per_block_ - 1) / columns_per_block_;
    y0 = static_cast<std::uint32_t>(i / per_row);
    x0 = static_cast<std::uint32_t>((i % per_row) * columns_per_block_);
    out.height = 1;
    out.width = std::min(columns_per_block_, columns_ - x0);
  }
  const std::size_t row_bytes = std::size_t{out.width} * pixel;
  block_.resize(row_bytes * out.height);
  copy_packed(base_ + static_cast<std::ptrdiff_t>(y0) * row_stride_ +
                  static_cast<std::ptrdiff_t>(x0) * column_stride_,
              out.height, out.width, channels, item, row_stride_, column_stride_, channel_stride_,
              block_.data());
  out.data = block_.data();
  out.stride = row_bytes;
  return out;
}

void ArrayPixels::pack() {
  if (!needs_copy_ || !copy_.empty()) return;
  const std::size_t item = static_cast<std::size_t>(info_.itemsize);
  const std::size_t channels = info_.ndim == 3 ? static_cast<std::size_t>(info_.shape[2]) : 1;
  const std::size_t width = view_.width;
  const std::size_t height = view_.height;
  const std::size_t row_bytes = width * channels * item;
  copy_.resize(row_bytes * height);
  copy_packed(static_cast<const std::byte*>(info_.ptr), height, width, channels, item,
              info_.strides[0], info_.strides[1], info_.ndim == 3 ? info_.strides[2] : 0,
              copy_.data());
  view_.data = copy_.data();
  view_.stride = row_bytes;
}

const char* dtype_name(SampleType sample) noexcept {
  switch (sample) {
    case SampleType::U8:
      return "uint8";
    case SampleType::U16:
      return "uint16";
    case SampleType::F32:
      return "float32";
  }
  return "float32";
}

py::dtype dtype_of(SampleType sample) { return py::dtype(dtype_name(sample)); }

py::array to_array(Image image) {
  auto* owned = new Image(std::move(image));  // NOLINT(cppcoreguidelines-owning-memory)
  const py::capsule owner(owned, [](void* p) { delete static_cast<Image*>(p); });
  const std::size_t channels = channel_count(owned->format.layout);
  const std::size_t item = sample_bytes(owned->format.sample);
  const py::dtype dtype = dtype_of(owned->format.sample);
  std::vector<py::ssize_t> shape = {owned->height, owned->width};
  std::vector<py::ssize_t> strides = {static_cast<py::ssize_t>(owned->stride),
                                      static_cast<py::ssize_t>(channels * item)};
  if (channels > 1) {
    shape.push_back(static_cast<py::ssize_t>(channels));
    strides.push_back(static_cast<py::ssize_t>(item));
  }
  return py::array(dtype, shape, strides, owned->storage.data(), owner);
}

}  // namespace gpuhist::python
