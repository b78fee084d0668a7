#include "score_objects.hpp"

#include <limits>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace vq::python {
namespace py = pybind11;

py::object frame_array(const ScoreTable& table, std::size_t first, std::size_t end) {
    const py::module_ numpy = py::module_::import("numpy");
    py::list fields;
    fields.append(py::make_tuple("frame", "<i8"));
    for (std::size_t c = 0; c < table.column_count(); ++c)
        fields.append(py::make_tuple(table.name(c), "<f8"));
    std::vector<std::size_t> frames;
    for (std::size_t f = first; f < end; ++f)
        if (table.frame_selected(f)) frames.push_back(f);
    py::array array = numpy.attr("empty")(frames.size(), numpy.attr("dtype")(fields));
    // Every field is 8 bytes and numpy packs them without padding: a record is a row of 8-byte
    // cells.
    auto* cell = static_cast<char*>(array.mutable_data());
    for (const std::size_t frame : frames) {
        const auto index = std::int64_t(frame);
        std::memcpy(cell, &index, 8);
        cell += 8;
        for (std::size_t c = 0; c < table.column_count(); ++c, cell += 8) {
            const double value =
                table.value(c, frame).value_or(std::numeric_limits<double>::quiet_NaN());
            std::memcpy(cell, &value, 8);
        }
    }
    return array;
}

py::list receipt_list(const std::vector<FeatureReceipt>& receipts) {
    py::list list;
    for (const FeatureReceipt& receipt : receipts) {
        py::list notes;
        for (const ReceiptNote& note : receipt.notes)
            notes.append(py::dict(py::arg("name") = note.name, py::arg("count") = note.count,
                                  py::arg("message") = note.message));
        list.append(py::dict(py::arg("feature") = receipt.feature,
                             py::arg("backend") = receipt.backend,
                             py::arg("outputs") = receipt.outputs, py::arg("notes") = notes));
    }
    return list;
}

py::dict result_dict(const ScoreTable& table) {
    py::dict pooled;
    for (std::size_t c = 0; c < table.column_count(); ++c) {
        py::dict methods;
        for (const PoolingMethod method : all_pooling_methods)
            if (const auto value = table.pooled(c, method)) methods[to_string(method)] = *value;
        pooled[py::str(table.name(c))] = methods;
    }
    py::dict aggregates;
    for (const auto& [name, value] : table.aggregates()) aggregates[py::str(name)] = value;
    return py::dict(py::arg("frames") = frame_array(table, 0, table.frame_count()),
                    py::arg("pooled") = pooled, py::arg("aggregates") = aggregates,
                    py::arg("receipts") = receipt_list(table.receipts()),
                    py::arg("backend_used") = table.backend_used(), py::arg("fps") = table.fps(),
                    py::arg("width") = table.width(), py::arg("height") = table.height());
}

}  // namespace vq::python
