// What vq.dask (python/vq/dask.py) runs on a cluster's workers and on its client: a reference's
// many-input run with its reports written, a chunk of a long run, and the chunks merged into the
// whole run's table and files (vq::run_many, run_chunk, merge_chunks; include/vq/run.hpp).
#pragma once

#include <pybind11/pybind11.h>

namespace vq::python {

// Adds count_frames, run_chunk, merge_chunks and run_many_reports to the module.
void register_distributed(pybind11::module_& module);

}  // namespace vq::python
