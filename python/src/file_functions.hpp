// gpuhist.read and histogram_file (the module's and a Context's): image files
// read by the io layer. A module built with the engine alone
// (GPUHIST_ENGINE_ONLY) has no file functions.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "functions.hpp"
#include "gpuhist/video_file.hpp"

namespace gpuhist::python {

// FrameSpace::Rgb for "rgb", FrameSpace::YCbCr for "ycbcr"; ValueError else.
[[nodiscard]] FrameSpace frame_space(const std::string& space);

// The luminance weights of a count in `space`: `luma`, "709" where it is not
// given; ValueError where it is given with Y'CbCr planes, which have no
// luminance of RGB to weigh (as `--luma` with `--space ycbcr` is refused).
[[nodiscard]] Name luma_in(FrameSpace space, const std::optional<Name>& luma);

// Registers gpuhist.read, gpuhist.histogram_file and Context.histogram_file.
void register_file_functions(
    pybind11::module_& m, pybind11::class_<SharedContext, std::shared_ptr<SharedContext>>& context);

}  // namespace gpuhist::python
