// gpuhist.Context and the module's functions.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
  std::shared_ptr<const Context> context;

  // The options of a count, checked (ValueError; GpuError for a GPU strategy without a device).
  [[nodiscard]] static HistogramOptions options(std::uint32_t bins, const std::string& luma);
  [[nodiscard]] RunOptions run(const std::optional<std::string>& strategy) const;
  // Counts a view already in memory; call without the GIL.
  [[nodiscard]] Histogram count_unlocked(const ImageView& view, const HistogramOptions& options,
                                         const RunOptions& run) const {
    return context->compute(view, options, run);
  }
  [[nodiscard]] Histogram histogram(const pybind11::handle& image, std::uint32_t bins,
                                    const std::string& luma,
                                    const std::optional<std::string>& strategy) const;
  [[nodiscard]] Histogram histogram_file(const std::filesystem::path& path, std::uint32_t bins,
                                         const std::string& luma,
                                         const std::optional<std::string>& strategy,
                                         std::uint64_t max_pixels) const;
  [[nodiscard]] pybind11::array draw(const Histogram& histogram,
                                     std::pair<std::uint32_t, std::uint32_t> size,
                                     const std::string& scale,
                                     const std::vector<std::string>& channels,
                                     std::uint32_t background) const;
  // The adjusted image, a new array of the input's dtype (grey for threshold).
  [[nodiscard]] pybind11::array adjust(const pybind11::handle& image,
                                       const Adjustment& adjustment) const;
};

[[nodiscard]] std::shared_ptr<SharedContext> open_context(const std::string& device);
// The module's shared context for `device` (default "auto").
[[nodiscard]] std::shared_ptr<SharedContext> default_context(
    const std::optional<std::string>& device);

[[nodiscard]] pybind11::array read(const std::filesystem::path& path, std::uint64_t max_pixels,
                                   bool all_formats);
[[nodiscard]] pybind11::dict compare_histograms(const Histogram& histogram,
                                                const Histogram& reference);
[[nodiscard]] pybind11::list devices();

}  // namespace gpuhist::python
