// Twin parity through the session: the same frames scored with --backend cpu and --backend cuda
// must give the same columns, frames and bits.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

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

inline void expect_same_bits(const ScoreTable& cpu, const ScoreTable& gpu, const std::string& what) {
    ASSERT_EQ(cpu.column_count(), gpu.column_count()) << what;
    ASSERT_EQ(cpu.frame_count(), gpu.frame_count()) << what;
    for (std::size_t c = 0; c < cpu.column_count(); ++c) {
        ASSERT_EQ(cpu.name(c), gpu.name(c)) << what;
        for (std::size_t f = 0; f < cpu.frame_count(); ++f) {
            const auto a = cpu.value(c, f), b = gpu.value(c, f);
            ASSERT_EQ(a.has_value(), b.has_value()) << what << " " << cpu.name(c) << " frame " << f;
            if (a)
                EXPECT_EQ(std::bit_cast<std::uint64_t>(*a), std::bit_cast<std::uint64_t>(*b))
                    << what << " " << cpu.name(c) << " frame " << f << ": cpu " << *a << ", cuda " << *b;
        }
    }
}

// "641x359_10bit_420": a test-name-safe description of a format.
inline std::string format_name(const VideoFormat& f) {
    std::string layout = to_string(f.chroma);
    std::erase(layout, ':');
    return std::to_string(f.width) + "x" + std::to_string(f.height) + "_" + std::to_string(f.bit_depth) + "bit_" +
           layout;
}

}  // namespace vq::test
