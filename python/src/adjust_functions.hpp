// The adjustments (equalize, clahe, autolevel, threshold, match) as the
// module's functions (on the device named, default "auto") and as
// gpuhist.Context's methods (on that context's device).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "functions.hpp"

namespace gpuhist::python {

void register_adjustments(pybind11::module_& m,
                          pybind11::class_<SharedContext, std::shared_ptr<SharedContext>>& context);

}  // namespace gpuhist::python
