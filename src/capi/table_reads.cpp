#include "table_reads.hpp"

#include <fmt/format.h>

namespace vq::capi {
namespace {

void require_score(const ScoreTable& table, std::size_t score, const Call& call) {
    call.require(score < table.column_count(),
                 fmt::format("score {} is out of range ({} scores)", score, table.column_count()));
}

}  // namespace

const char* score_name(const ScoreTable& table, std::size_t score, const Call& call) {
    require_score(table, score, call);
    return table.name(score).c_str();
}

void frame_value(const ScoreTable& table, std::size_t score, std::size_t frame,
                 std::size_t frames, double* value, int* present, const Call& call) {
    call.require(value != nullptr, "value is NULL");
    call.require(present != nullptr, "present is NULL");
    require_score(table, score, call);
    call.require(frame < frames, fmt::format("frame {} is out of range ({} frames)", frame, frames));
    const auto found = table.value(score, frame);
    *present = found.has_value();
    *value = found.value_or(0);
}

}  // namespace vq::capi
