// gpuhist.Context and the module's functions.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::python {

// The luma weights named "709" or "601" (also "rec709", "rec601"); ValueError otherwise.
[[nodiscard]] LumaWeights luma_weights(const std::string& luma);

// A Context shared by the Python objects that use it; calls on it are
// serialised by the Context itself, with the GIL released.
struct SharedContext {
  std::string requested;  // the device asked for: "auto", "cpu", an index or a name
  bool shared = false;    // the module's context for `requested`, not one of its own

  // The context, opened again on first use in a process forked after it was
  // opened (a Vulkan device does not survive fork(): the child would wait on
  // it for ever); the parent's is left alone there. With or without the GIL.
  [[nodiscard]] std::shared_ptr<const Context> context() const;
  void set_context(std::shared_ptr<const Context> context);

  SharedContext() = default;
  SharedContext(const SharedContext&) = delete;
  SharedContext& operator=(const SharedContext&) = delete;
  // In a process forked after the context was opened, the parent's device is
  // left, never destroyed: its threads are not there to end.
  ~SharedContext();

  // The options of a count, checked (ValueError; GpuError for a GPU strategy without a device).
  [[nodiscard]] static HistogramOptions options(Whole bins, const Name& luma);
  [[nodiscard]] RunOptions run(const std::optional<std::string>& strategy) const;
  // Counts a view already in memory; call without the GIL.
  [[nodiscard]] Histogram count_unlocked(const ImageView& view, const HistogramOptions& options,
                                         const RunOptions& run) const {
    return context()->compute(view, options, run);
  }
  [[nodiscard]] Histogram histogram(const ArrayLike& image, Whole bins, const Name& luma,
                                    const std::optional<std::string>& strategy) const;
  [[nodiscard]] pybind11::array draw(const Histogram& histogram, WholePair size,
                                     const std::string& scale,
                                     const std::vector<std::string>& channels,
                                     Whole background) const;
  // The adjusted image, a new array of the input's dtype and shape (grey for
  // threshold), and the threshold used (threshold alone).
  struct Adjusted {
    pybind11::array image;
    std::optional<std::int32_t> threshold;
  };
  [[nodiscard]] Adjusted adjust(const ArrayLike& image, const Adjustment& adjustment) const;

 private:
  mutable std::shared_ptr<const Context> context_;
  mutable std::atomic<long> process_{0};  // the process that opened context_
};

[[nodiscard]] std::shared_ptr<SharedContext> open_context(const Name& device);
// The shared context a Context object holds: TypeError for one made without __init__
// (which pybind11's holder cast would report as a RuntimeError).
[[nodiscard]] std::shared_ptr<SharedContext> shared_of(const pybind11::object& self);
// The module's shared context for `device` (default "auto").
[[nodiscard]] std::shared_ptr<SharedContext> default_context(const std::optional<Name>& device);

// The limit of pixels a file may have, checked (0 or more).
[[nodiscard]] std::uint64_t max_pixels_of(Whole max_pixels);

// RunOptions::poll for work called from Python's main thread: at most every
// 20 ms, the GIL taken to run Python's signal handlers (Ctrl-C's raises
// KeyboardInterrupt), whose error is thrown. Empty on other threads, which
// signals do not reach. Called with the GIL held.
[[nodiscard]] std::function<void()> interrupt_poll();

[[nodiscard]] pybind11::dict compare_histograms(const Histogram& histogram,
                                                const Histogram& reference);
[[nodiscard]] pybind11::list devices();

}  // namespace gpuhist::python

GPUHIST_PYTHON_INITIALISED(gpuhist::python::SharedContext)
