// gpuhist::Error as Python exceptions: ValueError for bad arguments, OSError
// (FileNotFoundError for a missing file) for files, gpuhist.GpuError for the
// device.
#pragma once

#include <pybind11/pybind11.h>

namespace gpuhist::python {

void register_errors(pybind11::module_& m);

}  // namespace gpuhist::python
