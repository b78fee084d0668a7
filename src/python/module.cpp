// vq._vq: the native half of the Python package `vq`, over the public C++ API (include/vq) alone.
// The pure-Python layer (python/vq/) gives it its documented, typed interface; the names here are
// that layer's, not the user's.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "errors.hpp"
#include "score_objects.hpp"
#include "session_object.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"
#include "vq/session.hpp"

namespace vq::python {
namespace py = pybind11;

namespace {

// A file run's notes, kept for the result; between frames, a look for Ctrl-C (Python's signal
// handlers run only when asked, and the run holds no GIL).
class PythonObserver : public RunObserver {
public:
    void note(const std::string& line) override { notes.push_back(line); }
    bool progress(std::size_t) override {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() == 0) return true;
        interrupted = true;  // the signal's exception is pending in this thread: raised below
        return false;
    }
    std::vector<std::string> notes;
    bool interrupted = false;
};

using RawFormat = std::tuple<int, int, int, std::string>;  // width, height, bit depth, chroma

py::dict run_files(const std::string& reference, const std::string& distorted,
                   const std::optional<RawFormat>& raw, const std::vector<std::string>& features,
                   const std::vector<std::string>& models, const std::string& backend,
                   unsigned threads, std::size_t subsample, int gpu, std::size_t frame_count,
                   std::size_t skip_reference, std::size_t skip_distorted) {
    Job job;
    std::optional<VideoFormat> raw_format;
    if (raw) raw_format = std::apply(make_format, *raw);
    job.reference = {reference, raw_format};
    job.distorted = {distorted, raw_format};
    job.frames = {frame_count, skip_reference, skip_distorted};
    job.models = models;
    for (const std::string& feature : features) job.features.push_back({feature});
    job.session = {threads, subsample, parse_backend(backend), gpu};
    PythonObserver observer;
    std::optional<ScoreTable> table;
    try {
        py::gil_scoped_release release;
        table = vq::run(job, observer);
    } catch (const Error&) {
        if (observer.interrupted) throw py::error_already_set();
        throw;
    }
    py::dict result = result_dict(*table);
    result["notes"] = observer.notes;
    return result;
}

}  // namespace

PYBIND11_MODULE(_vq, module) {
    module.doc() = "vq's native module; use the package `vq` (help(vq)).";
    module.attr("version") = VQ_VERSION;
    register_errors(module);

    module.def("run_files", &run_files, py::arg("reference"), py::arg("distorted"), py::arg("raw"),
               py::arg("features"), py::arg("models"), py::arg("backend"), py::arg("threads"),
               py::arg("subsample"), py::arg("gpu"), py::arg("frame_count"),
               py::arg("skip_reference"), py::arg("skip_distorted"));
    module.def("describe_features", &describe_features);
    module.def("describe_models", &describe_models);

    py::class_<SessionObject>(module, "Session")
        .def(py::init<const std::vector<std::string>&, const std::vector<std::string>&,
                      const std::string&, unsigned, std::size_t, int>(),
             py::arg("features"), py::arg("models"), py::arg("backend"), py::arg("threads"),
             py::arg("subsample"), py::arg("gpu"))
        .def("needs_reference", &SessionObject::needs_reference)
        .def("started", &SessionObject::started)
        .def("start", &SessionObject::start, py::arg("width"), py::arg("height"),
             py::arg("bit_depth"), py::arg("chroma"))
        .def("format", &SessionObject::format)
        .def("push", &SessionObject::push, py::arg("reference"), py::arg("distorted"))
        .def("frames_ready", &SessionObject::frames_ready)
        .def("ready_scores", &SessionObject::ready_scores, py::arg("first"))
        .def("finish", &SessionObject::finish)
        .def("receipts", &SessionObject::receipts)
        .def("frames_pushed", &SessionObject::frames_pushed);
}

}  // namespace vq::python
