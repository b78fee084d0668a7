// A whole run over two video files (vq.h: vq_run_files), through vq::run.
#include <memory>

#include "config.hpp"
#include "guard.hpp"
#include "handles.hpp"
#include "vq/run.hpp"

namespace {

// A NULL-terminated list of strings (NULL: none).
std::vector<std::string> strings(const char* const* list) {
    std::vector<std::string> out;
    for (; list && *list; ++list) out.emplace_back(*list);
    return out;
}

}  // namespace

vq_status vq_run_files(const char* reference_path, const char* distorted_path,
                       const char* const* features, const char* const* models,
                       const vq_config* config, vq_result** result) {
    const vq::capi::Call call{"vq_run_files"};
    return vq::capi::guarded(call, [&] {
        call.require(distorted_path != nullptr, "distorted_path is NULL");
        call.require(result != nullptr, "result is NULL");
        vq::Job job;
        if (reference_path) job.reference.path = reference_path;
        job.distorted.path = distorted_path;
        job.models = strings(models);
        for (const std::string& feature : strings(features)) job.features.push_back({feature});
        job.session = vq::capi::session_config(config, call);
        vq::RunObserver quiet;
        auto finished = std::make_unique<vq_result>(vq_result{vq::run(job, quiet), {}});
        *result = finished.release();
    });
}
