// gpuhist.video: an iterator of per-frame histograms of a video file.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "functions.hpp"

namespace gpuhist::python {

// Registers VideoHistograms, gpuhist.video and Context.video.
void register_video(pybind11::module_& m,
                    pybind11::class_<SharedContext, std::shared_ptr<SharedContext>>& context);

}  // namespace gpuhist::python
