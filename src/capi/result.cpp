// A finished run's scores (vq.h "Results").
#include <fmt/format.h>

#include "guard.hpp"
#include "handles.hpp"
#include "table_reads.hpp"

using vq::capi::Call;
using vq::capi::call_on;
using vq::capi::guarded;

namespace {

const vq::ScoreTable& table_of(const vq_result* result, const Call& call) {
    call.require(result != nullptr, "result is NULL");
    return result->table;
}

void require_index(std::size_t index, std::size_t count, const char* what, const Call& call) {
    call.require(index < count, fmt::format("{} {} is out of range ({} {}s)", what, index, count,
                                            what));
}

}  // namespace

void vq_result_destroy(vq_result* result) { delete result; }

const char* vq_result_last_error(const vq_result* result) {
    return result ? result->last_error.c_str() : "vq_result_last_error: result is NULL";
}

vq_status vq_result_frame_count(const vq_result* result, size_t* frames) {
    const Call call = call_on("vq_result_frame_count", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(frames != nullptr, "frames is NULL");
        *frames = table.frame_count();
    });
}

vq_status vq_result_score_count(const vq_result* result, size_t* count) {
    const Call call = call_on("vq_result_score_count", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(count != nullptr, "count is NULL");
        *count = table.column_count();
    });
}

vq_status vq_result_score_name(const vq_result* result, size_t score, const char** name) {
    const Call call = call_on("vq_result_score_name", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(name != nullptr, "name is NULL");
        *name = vq::capi::score_name(table, score, call);
    });
}

vq_status vq_result_frame_value(const vq_result* result, size_t score, size_t frame,
                                double* value, int* present) {
    const Call call = call_on("vq_result_frame_value", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        vq::capi::frame_value(table, score, frame, table.frame_count(), value, present, call);
    });
}

vq_status vq_result_pooled(const vq_result* result, size_t score, vq_pooling method, double* value,
                           int* present) {
    const Call call = call_on("vq_result_pooled", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(value != nullptr, "value is NULL");
        call.require(present != nullptr, "present is NULL");
        require_index(score, table.column_count(), "score", call);
        call.require(method >= VQ_POOL_MIN && method <= VQ_POOL_HARMONIC_MEAN,
                     fmt::format("method is {}, not a vq_pooling", static_cast<int>(method)));
        static constexpr vq::PoolingMethod methods[] = {
            vq::PoolingMethod::min, vq::PoolingMethod::max, vq::PoolingMethod::mean,
            vq::PoolingMethod::harmonic_mean};
        const auto pooled = table.pooled(score, methods[method]);
        *present = pooled.has_value();
        *value = pooled.value_or(0);
    });
}

vq_status vq_result_aggregate_count(const vq_result* result, size_t* count) {
    const Call call = call_on("vq_result_aggregate_count", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(count != nullptr, "count is NULL");
        *count = table.aggregates().size();
    });
}

vq_status vq_result_aggregate(const vq_result* result, size_t index, const char** name,
                              double* value) {
    const Call call = call_on("vq_result_aggregate", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(name != nullptr, "name is NULL");
        call.require(value != nullptr, "value is NULL");
        require_index(index, table.aggregates().size(), "aggregate", call);
        *name = table.aggregates()[index].first.c_str();
        *value = table.aggregates()[index].second;
    });
}

vq_status vq_result_receipt_count(const vq_result* result, size_t* count) {
    const Call call = call_on("vq_result_receipt_count", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(count != nullptr, "count is NULL");
        *count = table.receipts().size();
    });
}

vq_status vq_result_receipt(const vq_result* result, size_t index, const char** feature,
                            const char** backend) {
    const Call call = call_on("vq_result_receipt", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(feature != nullptr, "feature is NULL");
        call.require(backend != nullptr, "backend is NULL");
        require_index(index, table.receipts().size(), "receipt", call);
        *feature = table.receipts()[index].feature.c_str();
        *backend = table.receipts()[index].backend.c_str();
    });
}

vq_status vq_result_backend_used(const vq_result* result, const char** backend) {
    const Call call = call_on("vq_result_backend_used", result);
    return guarded(call, [&] {
        const vq::ScoreTable& table = table_of(result, call);
        call.require(backend != nullptr, "backend is NULL");
        *backend = table.backend_used().c_str();
    });
}
