#include "engine/driver.hpp"

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {

void add_requests(Session& session, const Job& job) {
    for (const std::string& model : job.models)
        job.predict_models ? session.add_model(model) : session.add_model_features(model);
    for (const JobFeature& feature : job.features)
        session.add_feature(feature.request, feature.on_collision);
}

std::string ended_first_note(const FrameSource& shorter, const FrameSource& longer,
                             std::size_t frames) {
    return fmt::format("'{}' ended before '{}'; scoring the first {} frames",
                       one_line(shorter.path()), one_line(longer.path()), frames);
}

void check_compatible(const FrameSource& reference, const FrameSource& distorted) {
    const VideoFormat& a = reference.format();
    const VideoFormat& b = distorted.format();
    std::vector<std::string> problems;
    if (a.width != b.width || a.height != b.height)
        problems.push_back(
            fmt::format("sizes differ ({}x{} vs {}x{}; --scale {}x{} scales the distorted video)",
                        a.width, a.height, b.width, b.height, a.width, a.height));
    if (a.bit_depth != b.bit_depth)
        problems.push_back(fmt::format("bit depths differ ({} vs {})", a.bit_depth, b.bit_depth));
    if (a.chroma != b.chroma)
        problems.push_back(fmt::format("chroma formats differ ({} vs {})", to_string(a.chroma),
                                       to_string(b.chroma)));
    if (!problems.empty())
        throw runtime_error(fmt::format("'{}' and '{}' cannot be compared: {}", reference.path(),
                                        distorted.path(), fmt::join(problems, "; ")));
}

std::unique_ptr<FrameSource> read_ahead_as_planned(std::unique_ptr<FrameSource> source,
                                                   const ReadAheadPlan& plan) {
    if (!worth_reading_ahead(*source)) return source;
    return read_ahead(std::move(source), plan.frames, plan.threads);
}

ScoreTable run_frame_loop(Session& session, FrameSource* reference, FrameSource& distorted,
                          const FrameRange& range, RunObserver& observer) {
    // libvmaf discards skipped frames whatever they hold; an input too short to skip simply ends.
    if (reference) reference->skip_frames(range.skip_reference);
    distorted.skip_frames(range.skip_distorted);

    const auto ended_first = [&](const FrameSource& shorter, const FrameSource& longer,
                                 std::size_t frames) {
        observer.note(ended_first_note(shorter, longer, frames));
    };
    std::size_t index = 0;
    while (range.frame_count == 0 || index < range.frame_count) {
        std::optional<Picture> ref;
        if (reference) ref = reference->next();
        std::optional<Picture> dist = distorted.next();
        if (reference && !ref && dist) {
            ended_first(*reference, distorted, index);
            break;
        }
        if (!dist) {
            if (reference && ref) ended_first(distorted, *reference, index);
            break;
        }
        session.push({ref ? std::move(*ref) : Picture(), std::move(*dist)});
        ++index;
        if (!observer.progress(index))
            throw runtime_error(
                fmt::format("the run was stopped by its caller after {} frames", index));
    }
    if (index == 0)
        throw runtime_error(
            fmt::format("no frames to score in '{}'{}", distorted.path(),
                        range.skip_distorted || range.skip_reference ? " after skipping" : ""));
    return session.finish();
}

}  // namespace vq
