// gpuhist.histogram_files: the histograms of many image files, decoded on
// several threads and counted in order, each file's failure its own.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "functions.hpp"

namespace gpuhist::python {

// Registers FileHistogram, FileHistograms, gpuhist.histogram_files and
// Context.histogram_files.
void register_files(pybind11::module_& m,
                    pybind11::class_<SharedContext, std::shared_ptr<SharedContext>>& context);

}  // namespace gpuhist::python
