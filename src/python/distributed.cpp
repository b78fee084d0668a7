#include "distributed.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "jobs.hpp"
#include "score_objects.hpp"
#include "vq/error.hpp"
#include "vq/report.hpp"

namespace vq::python {
namespace py = pybind11;

namespace {

// vq.score's arguments as one tuple, as vq.dask ships a job to a worker.
using JobArgs = std::tuple<std::string, std::string, std::optional<RawFormat>,
                           std::vector<std::string>, std::vector<std::string>, std::string,
                           unsigned, std::size_t, int, std::size_t, std::size_t, std::size_t>;

Job job_of(const JobArgs& args) { return std::apply(make_job, args); }

OutputFormat output_format(const std::string& name) {
    if (name == "xml") return OutputFormat::xml;
    if (name == "json") return OutputFormat::json;
    if (name == "csv") return OutputFormat::csv;
    if (name == "sub") return OutputFormat::sub;
    throw usage_error("unknown output format '" + name + "' (xml, json, csv or sub)");
}

// The report the vq command writes for this table in `format` (its default number style).
std::string report_text(const ScoreTable& table, const std::string& format) {
    std::ostringstream out;
    write_report(out, table, output_format(format), NumberStyle::libvmaf_default(),
                 {VQ_VERSION, {}});
    return out.str();
}

std::size_t count_frames_of(const JobArgs& args) {
    const Job job = job_of(args);
    py::gil_scoped_release release;
    return count_frames(job);
}

// A chunk as plain Python data, for the client to merge: frames [first, end) as rows of
// "values" (NaN where absent) and "present", the columns' names and the run's description.
py::dict run_chunk_of(const JobArgs& args, std::size_t first, std::size_t count) {
    const Job job = job_of(args);
    PythonObserver observer;
    std::optional<ScoreTable> table;
    {
        py::gil_scoped_release release;
        table = run_chunk(job, first, count, observer);
    }
    const std::size_t end = first + table->frame_count(), columns = table->column_count();
    py::array_t<double> values({end - first, columns});
    py::array_t<bool> present({end - first, columns});
    auto v = values.mutable_unchecked<2>();
    auto p = present.mutable_unchecked<2>();
    std::vector<std::string> names;
    for (std::size_t c = 0; c < columns; ++c) {
        names.push_back(table->name(c));
        for (std::size_t frame = first; frame < end; ++frame) {
            const auto value = table->value(c, frame - first);
            v(frame - first, c) = value.value_or(std::numeric_limits<double>::quiet_NaN());
            p(frame - first, c) = value.has_value();
        }
    }
    return py::dict(py::arg("first") = first, py::arg("end") = end, py::arg("names") = names,
                    py::arg("values") = values, py::arg("present") = present,
                    py::arg("subsample") = table->subsample(),
                    py::arg("receipts") = receipt_list(table->receipts()),
                    py::arg("backend_used") = table->backend_used(), py::arg("fps") = table->fps(),
                    py::arg("width") = table->width(), py::arg("height") = table->height(),
                    py::arg("notes") = observer.notes);
}

std::vector<FeatureReceipt> receipts_of(const py::list& list) {
    std::vector<FeatureReceipt> receipts;
    for (const py::handle item : list) {
        const py::dict receipt = py::reinterpret_borrow<py::dict>(item);
        FeatureReceipt one{receipt["feature"].cast<std::string>(),
                           receipt["backend"].cast<std::string>(),
                           receipt["outputs"].cast<std::vector<std::string>>()};
        for (const py::handle note : receipt["notes"].cast<py::list>())
            one.notes.push_back({note["name"].cast<std::string>(),
                                 note["count"].cast<std::uint64_t>(),
                                 note["message"].cast<std::string>()});
        receipts.push_back(std::move(one));
    }
    return receipts;
}

Chunk chunk_of(const py::dict& data) {
    Chunk chunk;
    chunk.first = data["first"].cast<std::size_t>();
    const std::size_t end = data["end"].cast<std::size_t>();
    const auto names = data["names"].cast<std::vector<std::string>>();
    const auto values = data["values"].cast<py::array_t<double, py::array::forcecast>>();
    const auto present = data["present"].cast<py::array_t<bool, py::array::forcecast>>();
    if (values.ndim() != 2 || present.ndim() != 2 ||
        std::size_t(values.shape(0)) != end - chunk.first ||
        std::size_t(values.shape(1)) != names.size() || values.shape(0) != present.shape(0) ||
        values.shape(1) != present.shape(1))
        throw usage_error("merge_chunks: a chunk's values do not match its frames and names");
    const auto v = values.unchecked<2>();
    const auto p = present.unchecked<2>();
    chunk.scores.set_subsample(data["subsample"].cast<std::size_t>());
    for (const std::string& name : names) chunk.scores.add_column(name);
    chunk.scores.set_frame_count(end - chunk.first);
    for (std::size_t c = 0; c < names.size(); ++c)
        for (std::size_t i = 0; i < end - chunk.first; ++i)
            if (p(i, c)) chunk.scores.set(c, i, v(i, c));
    chunk.run = {receipts_of(data["receipts"].cast<py::list>()),
                 data["backend_used"].cast<std::string>(), data["fps"].cast<double>(),
                 data["width"].cast<int>(), data["height"].cast<int>()};
    return chunk;
}

// The chunks merged: the whole run's result, and its reports written to the (format, path) pairs.
py::dict merge_chunks_of(const py::list& data,
                         const std::vector<std::pair<std::string, std::string>>& outputs) {
    std::vector<Chunk> chunks;
    for (const py::handle item : data)
        chunks.push_back(chunk_of(py::reinterpret_borrow<py::dict>(item)));
    const ScoreTable merged = merge_chunks(chunks);
    for (const auto& [format, path] : outputs) {
        std::ofstream out(path, std::ios::binary);
        out << report_text(merged, format);
        if (!out.flush()) throw runtime_error("cannot write '" + path + "'");
    }
    return result_dict(merged);
}

// One reference against several distorted files (vq::run_many): per input, its result with the
// reports in `formats` as the vq command writes them ({"reports": {format: bytes}}), or
// {"error", "kind"}; and the run's notes.
py::tuple run_many_reports(const JobArgs& args, const std::vector<std::string>& distorted,
                           const std::vector<std::string>& formats) {
    const Job job = job_of(args);
    std::vector<DistortedInput> inputs;
    for (const std::string& path : distorted) inputs.push_back({{path, job.distorted.raw}, {}});
    for (const std::string& format : formats) output_format(format);  // refused before the run
    PythonObserver observer;
    std::vector<InputOutcome> outcomes;
    {
        py::gil_scoped_release release;
        outcomes = run_many(job, inputs, observer);
    }
    py::list results;
    for (const InputOutcome& outcome : outcomes) {
        if (!outcome.scores) {
            results.append(py::dict(
                py::arg("error") = std::string(outcome.error->what()),
                py::arg("kind") = outcome.error->kind() == ErrorKind::usage ? "usage" : "runtime"));
            continue;
        }
        py::dict result = result_dict(*outcome.scores);
        py::dict reports;
        for (const std::string& format : formats)
            reports[py::str(format)] = py::bytes(report_text(*outcome.scores, format));
        result["reports"] = reports;
        results.append(result);
    }
    return py::make_tuple(results, observer.notes);
}

}  // namespace

void register_distributed(py::module_& module) {
    module.def("count_frames", &count_frames_of, py::arg("job"));
    module.def("run_chunk", &run_chunk_of, py::arg("job"), py::arg("first"), py::arg("count"));
    module.def("merge_chunks", &merge_chunks_of, py::arg("chunks"), py::arg("outputs"));
    module.def("run_many_reports", &run_many_reports, py::arg("job"), py::arg("distorted"),
               py::arg("formats"));
}

}  // namespace vq::python
