#include "jobs.hpp"

#include "session_object.hpp"

namespace vq::python {

Job make_job(const std::string& reference, const std::string& distorted,
             const std::optional<RawFormat>& raw, const std::vector<std::string>& features,
             const std::vector<std::string>& models, const std::string& backend, unsigned threads,
             std::size_t subsample, int gpu, std::size_t frame_count, std::size_t skip_reference,
             std::size_t skip_distorted) {
    Job job;
    std::optional<VideoFormat> raw_format;
    if (raw) raw_format = std::apply(make_format, *raw);
    job.reference = {reference, raw_format};
    job.distorted = {distorted, raw_format};
    job.frames = {frame_count, skip_reference, skip_distorted};
    job.models = models;
    for (const std::string& feature : features) job.features.push_back({feature});
    job.session = {threads, subsample, parse_backend(backend), gpu};
    return job;
}

}  // namespace vq::python
