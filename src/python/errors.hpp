// vq's exceptions as Python sees them: vq.Error, and below it vq.UsageError (also a ValueError:
// a bad request, option, format or array) and vq.RunError (also a RuntimeError: an input that
// cannot be read, a backend failure). Each carries vq::Error's one-line message.
#pragma once

#include <pybind11/pybind11.h>

namespace vq::python {

// Creates the exception classes in `module` and translates vq::Error into them.
void register_errors(pybind11::module_& module);

}  // namespace vq::python
