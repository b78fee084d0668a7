// A ScoreTable as Python objects, for the pure-Python layer (python/vq/_result.py) to wrap.
#pragma once

#include <cstddef>
#include <vector>

#include <pybind11/pybind11.h>

#include "vq/scores.hpp"

namespace vq::python {

// The selected frames (the subsample rule) of [first, end) as a numpy structured array: an int64
// field "frame", then one float64 field per column in the table's order, NaN where a frame has
// no value.
pybind11::object frame_array(const ScoreTable& table, std::size_t first, std::size_t end);

pybind11::list receipt_list(const std::vector<FeatureReceipt>& receipts);

// A finished run: {"frames", "pooled" (name -> {method -> value}, libvmaf's four methods, a
// method absent where the reference omits it), "aggregates", "receipts", "backend_used", "fps",
// "width", "height"}.
pybind11::dict result_dict(const ScoreTable& table);

}  // namespace vq::python
