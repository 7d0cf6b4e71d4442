// Arrays in and out: any object with the buffer protocol (numpy arrays), a
// DLPack tensor on the CPU (PyTorch, JAX, CuPy's pinned memory; through
// numpy.from_dlpack) or anything numpy.asarray shares, as an ImageView read
// in place, and an Image as a numpy array that keeps it alive.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

#include "gpuhist/image.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::python {

// Pixels of an array: (H, W) grey, (H, W, 1) grey, (H, W, 3) RGB or (H, W, 4)
// RGBA, of uint8, uint16 or float32. Read in place when each row's pixels are
// packed (rows may be any positive distance apart); otherwise (columns or
// channels strided, rows reversed or overlapping) copied by pack(). Counting
// reads more in place, or copies a block at a time (counted(), block()). The
// buffer is held for as long as this lives.
class ArrayPixels {
 public:
  // The dtypes a caller takes: counting takes float32 too, adjusting does not.
  enum class Dtypes { Any, Integers };
  // Throws TypeError (pybind11::type_error) for another dtype or shape,
  // naming the dtypes `accepted`; an array of no pixels is empty().
  explicit ArrayPixels(const pybind11::handle& array, Dtypes accepted = Dtypes::Any);
  ArrayPixels(const ArrayPixels&) = delete;
  ArrayPixels& operator=(const ArrayPixels&) = delete;

  [[nodiscard]] const ImageView& view() const noexcept { return view_; }
  // Copies a strided array into packed rows (call without the GIL: it reads only the buffer).
  void pack();
  [[nodiscard]] bool needs_copy() const noexcept { return needs_copy_; }
  // The array has a third axis (a grey image shaped (H, W, 1) has one).
  [[nodiscard]] bool channel_axis() const noexcept { return info_.ndim == 3; }
  // No pixels (a height or width of 0): view() is 0 x 0, of the array's format.
  [[nodiscard]] bool empty() const noexcept { return empty_; }

  // Counting reads the pixels in any order, so more arrays are read in place
  // for it: rows reversed (a negative row stride) from the last up, and rows
  // or columns all alike (a stride of 0, as np.broadcast_to makes) as one
  // row or column whose counts are multiplied. Others are copied a block at
  // a time (at most kBlockBytes, or one row), so that memory stays bounded.
  static constexpr std::size_t kBlockBytes = std::size_t{16} << 20;
  struct Counted {
    std::size_t blocks = 1;   // views to count, each by block(i)
    std::uint64_t times = 1;  // what each count is multiplied by
  };
  // Call without the GIL, as pack().
  [[nodiscard]] Counted counted() const noexcept { return counted_; }
  // Block `i` of counted().blocks: in place where the array allows, else
  // copied (the last view returned is overwritten by the next call).
  [[nodiscard]] ImageView block(std::size_t i);

 private:
  void plan_counting();

  pybind11::buffer_info info_;
  ImageView view_;
  bool needs_copy_ = false;
  bool empty_ = false;
  std::vector<std::byte> copy_;
  // What counting reads: `rows` x `columns` pixels from `base` by these
  // strides; in place (`in_place`) or copied `rows_per_block` rows (or,
  // where one row is over kBlockBytes, `columns_per_block` pixels of one
  // row) at a time.
  Counted counted_;
  const std::byte* base_ = nullptr;
  std::ptrdiff_t row_stride_ = 0, column_stride_ = 0, channel_stride_ = 0;
  std::uint32_t rows_ = 0, columns_ = 0;
  bool in_place_ = false;
  std::uint32_t rows_per_block_ = 0, columns_per_block_ = 0;
  std::vector<std::byte> block_;
};

// The numpy name of a sample type's dtype: "uint8", "uint16" or "float32".
[[nodiscard]] const char* dtype_name(SampleType sample) noexcept;
// The numpy dtype of a sample type.
[[nodiscard]] pybind11::dtype dtype_of(SampleType sample);

// `image` as a numpy array of shape (H, W) or (H, W, C) and its sample dtype,
// sharing its memory (the array owns the Image).
[[nodiscard]] pybind11::array to_array(Image image);

}  // namespace gpuhist::python
