// Twins through the session: the same frames scored with --backend cpu and --backend cuda, to be
// compared with support/compare.hpp.
#pragma once

#include <string>
#include <vector>

#include "vq/session.hpp"

namespace vq::test {

inline ScoreTable score_on(Backend backend, const std::vector<std::string>& requests,
                           const std::vector<FramePair>& frames, std::size_t subsample = 1) {
    Session session({.threads = 2, .subsample = subsample, .backend = backend});
    for (const std::string& request : requests) session.add_feature(request);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

// "641x359_10bit_420": a test-name-safe description of a format.
inline std::string format_name(const VideoFormat& f) {
    std::string layout = to_string(f.chroma);
    std::erase(layout, ':');
    return std::to_string(f.width) + "x" + std::to_string(f.height) + "_" +
           std::to_string(f.bit_depth) + "bit_" + layout;
}

}  // namespace vq::test
