// vq._vq: the native half of the Python package `vq`, over the public C++ API (include/vq) alone.
// The pure-Python layer (python/vq/) gives it its documented, typed interface; the names here are
// that layer's, not the user's.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "distributed.hpp"
#include "errors.hpp"
#include "jobs.hpp"
#include "score_objects.hpp"
#include "session_object.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"
#include "vq/session.hpp"

namespace vq::python {
namespace py = pybind11;

namespace {

py::dict run_files(const std::string& reference, const std::string& distorted,
                   const std::optional<RawFormat>& raw, const std::vector<std::string>& features,
                   const std::vector<std::string>& models, const std::string& backend,
                   unsigned threads, std::size_t subsample, int gpu, std::size_t frame_count,
                   std::size_t skip_reference, std::size_t skip_distorted) {
    const Job job = make_job(reference, distorted, raw, features, models, backend, threads,
                             subsample, gpu, frame_count, skip_reference, skip_distorted);
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
    register_distributed(module);
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
