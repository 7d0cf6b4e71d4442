// gpuhist.video: an iterator of per-frame histograms of a video file.
#pragma once

#include <pybind11/pybind11.h>

namespace gpuhist::python {

void register_video(pybind11::module_& m);

}  // namespace gpuhist::python
