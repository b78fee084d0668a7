// Helpers for the ciede tests: read fixtures, run the CPU twin directly.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "feature/feature.hpp"
#include "io/frame_source.hpp"
#include "metrics/ciede/ciede.hpp"
#include "feature/options.hpp"
#include "vq/picture.hpp"

namespace vq::test {

// The CPU twin, built through the registry's definition and its option table.
using OptionList = std::vector<std::pair<std::string, std::string>>;

inline std::unique_ptr<CpuFeature> make_ciede(const VideoFormat& format,
                                              const OptionList& options = {}) {
    const FeatureDefinition definition = ciede::definition();
    auto feature = definition.make_cpu(bind_options("ciede", definition.options, options));
    feature->init(format);
    return feature;
}

inline double ciede_score(CpuFeature& feature, const Picture& ref, const Picture& dist) {
    ciede::Block block{};
    feature.compute(FramePair{ref, dist}, std::as_writable_bytes(std::span(&block, 1)));
    double score = 0;
    feature.finish(std::as_bytes(std::span(&block, 1)), std::span(&score, 1));
    return score;
}

inline double ciede_score(const Picture& ref, const Picture& dist, const OptionList& options = {}) {
    return ciede_score(*make_ciede(ref.format(), options), ref, dist);
}

inline std::vector<Picture> read_all_frames(const std::string& path) {
    auto source = open_y4m(path);
    std::vector<Picture> frames;
    while (auto picture = source->next()) frames.push_back(std::move(*picture));
    return frames;
}

}  // namespace vq::test
