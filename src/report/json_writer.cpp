// JSON output, byte for byte as libvmaf writes it (spec/cli-and-output.md §11.3), quirks kept:
// a non-finite per-frame value prints `null` without its newline, the frames array separator
// is keyed on the frame index rather than on "first printed", and names are written unescaped,
// which is safe because a ScoreTable takes only names that need no escaping (is_report_name).
#include <algorithm>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/writers.hpp"

namespace vq::report {

namespace {

std::string json_number(double value, const NumberStyle& style) {
    return std::isfinite(value) ? format_number(value, style) : "null";
}

// Number of columns holding a value at this frame: the last of them gets no comma.
std::size_t values_at(const ScoreTable& table, std::size_t frame) {
    std::size_t count = 0;
    for (std::size_t column = 0; column < table.column_count(); ++column)
        if (table.value(column, frame)) ++count;
    return count;
}

void write_frames(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    out << "  \"frames\": [";
    for (std::size_t frame = 0; frame < table.frame_count(); ++frame) {
        if (!frame_printed(table, frame)) continue;
        out << (frame > 0 ? ",\n" : "\n");
        out << "    {\n      \"frameNum\": " << std::to_string(frame) << ",\n";
        out << "      \"metrics\": {\n";
        const std::size_t count = values_at(table, frame);
        std::size_t written = 0;
        for (std::size_t column = 0; column < table.column_count(); ++column) {
            const auto value = table.value(column, frame);
            if (!value) continue;
            ++written;
            out << "        \"" << table.name(column) << "\": " << json_number(*value, style)
                << (written < count ? "," : "");
            if (std::isfinite(*value)) out << '\n';
        }
        out << "      }\n    }";
    }
    out << "\n  ],\n";
}

// The members of one score's pooled object, `indent` deep, then the closing brace.
void write_pool_set(std::ostream& out, const std::string& indent, const PoolSet& set,
                    const NumberStyle& style) {
    for (std::size_t i = 0; i < set.size(); ++i)
        out << (i > 0 ? ",\n" : "\n") << indent << "  \"" << set[i].method
            << "\": " << json_number(set[i].value, style);
    out << "\n" << indent << "}";
}

void write_pooled(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                  const ExtraPooling& extra) {
    out << "  \"pooled_metrics\": {";
    for (std::size_t column = 0; column < table.column_count(); ++column) {
        out << (column > 0 ? ",\n" : "\n");
        out << "    \"" << table.name(column) << "\": {";
        write_pool_set(out, "    ", full_pool_set(table, column, extra), style);
    }
    out << "\n  },\n";
}

// vq's extension (--shots), last: "shots": [{"first": 0, "last": 47, "pooled_metrics": {...}}].
void write_shots(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                 const ExtraPooling& extra) {
    if (extra.shots.empty()) return;
    out << ",\n  \"shots\": [";
    for (std::size_t s = 0; s < extra.shots.size(); ++s) {
        const ShotPooling& shot = extra.shots[s];
        out << (s > 0 ? ",\n" : "\n") << "    {\n      \"first\": " << shot.first
            << ",\n      \"last\": " << shot.last << ",\n      \"pooled_metrics\": {";
        for (std::size_t column = 0; column < table.column_count(); ++column) {
            out << (column > 0 ? ",\n" : "\n") << "        \"" << table.name(column) << "\": {";
            write_pool_set(out, "        ", shot.columns[column], style);
        }
        out << "\n      }\n    }";
    }
    out << "\n  ]";
}

void write_aggregates(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    out << "  \"aggregate_metrics\": {";
    const auto& aggregates = table.aggregates();
    for (std::size_t j = 0; j < aggregates.size(); ++j) {
        out << "\n    \"" << aggregates[j].first
            << "\": " << json_number(aggregates[j].second, style)
            << (j + 1 < aggregates.size() ? "," : "");
    }
    out << "\n  }";
}

// A receipt's name in "feature_backends": the feature's, or, when the feature runs with several
// option sets, its first output's ("cambi_ws_33"), unique because no two features may write the
// same output. JSON names must be unique for a reader to see every entry.
std::string receipt_key(const ScoreTable& table, const FeatureReceipt& receipt) {
    const auto same_feature = [&](const FeatureReceipt& other) {
        return other.feature == receipt.feature;
    };
    const bool repeated =
        std::count_if(table.receipts().begin(), table.receipts().end(), same_feature) > 1;
    return repeated && !receipt.outputs.empty() ? receipt.outputs.front() : receipt.feature;
}

// vq's extension: which backend computed what. libvmaf has no such members, so golden
// comparisons must ignore "backend_used", "feature_backends" and "feature_notes" (like "version"
// and "fps").
// They come last so that everything before them stays libvmaf's text.
void write_backend_receipt(std::ostream& out, const ScoreTable& table) {
    const auto quoted = [](const std::string& text) { return nlohmann::json(text).dump(); };
    out << ",\n  \"backend_used\": " << quoted(table.backend_used()) << ",\n";
    out << "  \"feature_backends\": {";
    for (std::size_t r = 0; r < table.receipts().size(); ++r) {
        out << "\n    " << quoted(receipt_key(table, table.receipts()[r])) << ": "
            << quoted(table.receipts()[r].backend) << (r + 1 < table.receipts().size() ? "," : "");
    }
    out << "\n  }";
}

// vq's extension too, after "feature_backends" and under the same keys, only for the features
// that report notes: their run counts, e.g. "feature_notes": {"cambi": {"order_dependent_frames":
// 2, "order_dependent_scales": 2}} (the CUDA CAMBI's frames whose score may differ from the
// reference's in the last digits, spec/cambi.md §15.3). Absent when no feature has notes.
void write_receipt_notes(std::ostream& out, const ScoreTable& table) {
    const auto quoted = [](const std::string& text) { return nlohmann::json(text).dump(); };
    std::vector<const FeatureReceipt*> noted;
    for (const FeatureReceipt& receipt : table.receipts())
        if (!receipt.notes.empty()) noted.push_back(&receipt);
    if (noted.empty()) return;
    out << ",\n  \"feature_notes\": {";
    for (std::size_t r = 0; r < noted.size(); ++r) {
        out << "\n    " << quoted(receipt_key(table, *noted[r])) << ": {";
        const auto& notes = noted[r]->notes;
        for (std::size_t n = 0; n < notes.size(); ++n)
            out << "\n      " << quoted(notes[n].name) << ": " << notes[n].count
                << (n + 1 < notes.size() ? "," : "");
        out << "\n    }" << (r + 1 < noted.size() ? "," : "");
    }
    out << "\n  }";
}

// vq's extension too, last: which decoder read each container input (--hwdec), e.g.
// "input_decoders": {"distorted": "hevc via NVDEC (cuda)"}. Absent when no input was decoded.
void write_input_decoders(std::ostream& out, const ScoreTable& table) {
    const auto quoted = [](const std::string& text) { return nlohmann::json(text).dump(); };
    const auto& decoders = table.decoders();
    if (decoders.empty()) return;
    out << ",\n  \"input_decoders\": {";
    for (std::size_t d = 0; d < decoders.size(); ++d)
        out << "\n    " << quoted(decoders[d].first) << ": " << quoted(decoders[d].second)
            << (d + 1 < decoders.size() ? "," : "");
    out << "\n  }";
}

}  // namespace

void write_json(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                const ReportInfo& info) {
    out << "{\n";
    out << "  \"version\": \"" << info.version << "\",\n";
    out << "  \"fps\": " << (std::isfinite(table.fps()) ? format_fps(table.fps()) : "null")
        << ",\n";
    write_frames(out, table, style);
    write_pooled(out, table, style, info.pooling);
    write_aggregates(out, table, style);
    write_backend_receipt(out, table);
    write_receipt_notes(out, table);
    write_input_decoders(out, table);
    write_shots(out, table, style, info.pooling);
    out << "\n}\n";
}

}  // namespace vq::report
