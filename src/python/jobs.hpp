// A file run's request as the pure-Python layer passes it (vq.score's arguments), and what the
// run tells Python while it goes: shared by vq.score (module.cpp) and vq.dask (distributed.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/pybind11.h>

#include "vq/run.hpp"

namespace vq::python {

using RawFormat = std::tuple<int, int, int, std::string>;  // width, height, bit depth, chroma

Job make_job(const std::string& reference, const std::string& distorted,
             const std::optional<RawFormat>& raw, const std::vector<std::string>& features,
             const std::vector<std::string>& models, const std::string& backend, unsigned threads,
             std::size_t subsample, int gpu, std::size_t frame_count, std::size_t skip_reference,
             std::size_t skip_distorted);

// A file run's notes, kept for the result; between frames, a look for Ctrl-C (Python's signal
// handlers run only when asked, and the run holds no GIL).
class PythonObserver : public RunObserver {
public:
    void note(const std::string& line) override { notes.push_back(line); }
    bool progress(std::size_t) override {
        pybind11::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() == 0) return true;
        interrupted = true;  // the signal's exception is pending in this thread: raised below
        return false;
    }
    std::vector<std::string> notes;
    bool interrupted = false;
};

}  // namespace vq::python
