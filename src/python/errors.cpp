#include "errors.hpp"

#include <new>
#include <system_error>

#include "vq/error.hpp"

namespace vq::python {
namespace py = pybind11;

namespace {

// A new exception class `vq.NAME` with the given bases, added to `module`. Owned by the module
// for the life of the process (the translator below refers to it).
PyObject* add_exception(py::module_& module, const char* name, const char* doc, py::tuple bases) {
    const std::string qualified = std::string("vq.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    module.add_object(name, py::handle(type));
    return type;
}

}  // namespace

void register_errors(py::module_& module) {
    static PyObject* const error =
        add_exception(module, "Error", "Base of every error vq raises.",
                      py::make_tuple(py::handle(PyExc_Exception)));
    static PyObject* const usage = add_exception(
        module, "UsageError",
        "A bad request: an unknown feature or option, a bad model string, a frame array of the "
        "wrong type, shape or layout. The CLI exits with status 2 for these.",
        py::make_tuple(py::handle(error), py::handle(PyExc_ValueError)));
    static PyObject* const run = add_exception(
        module, "RunError",
        "A failure while running: an input that cannot be read or compared, a backend failure. "
        "The CLI exits with status 1 for these.",
        py::make_tuple(py::handle(error), py::handle(PyExc_RuntimeError)));
    py::register_exception_translator([](std::exception_ptr failure) {
        try {
            if (failure) std::rethrow_exception(failure);
        } catch (const Error& e) {
            PyErr_SetString(e.kind() == ErrorKind::usage ? usage : run, e.what());
        } catch (const std::system_error& e) {
            // As the CLI words it: a thread or file the system would not give.
            const std::string message = "the system refused a resource: " + one_line(e.what());
            PyErr_SetString(run, message.c_str());
        }
    });
}

}  // namespace vq::python
