// gpuhist.read and histogram_file (the module's and a Context's): image files
// read by the io layer. A module built with the engine alone
// (GPUHIST_ENGINE_ONLY) has no file functions.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "functions.hpp"
#include "gpuhist/video_file.hpp"

namespace gpuhist::python {

// FrameSpace::Rgb for "rgb", FrameSpace::YCbCr for "ycbcr"; ValueError else.
[[nodiscard]] FrameSpace frame_space(const std::string& space);

// Registers gpuhist.read, gpuhist.histogram_file and Context.histogram_file.
void register_file_functions(
    pybind11::module_& m, pybind11::class_<SharedContext, std::shared_ptr<SharedContext>>& context);

}  // namespace gpuhist::python
