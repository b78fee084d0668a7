// What the VMAF golden tests share: a fixture scored through the session with some models, and a
// model run's table checked against a reference golden, per frame and pooled, bit for bit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden_cases.hpp"
#include "vq/session.hpp"

namespace vq::test {

inline ScoreTable score_fixture(const std::filesystem::path& fixtures, const std::string& fixture,
                                const std::vector<std::string>& models, SessionConfig config = {}) {
    Session session(config);
    for (const std::string& model : models) session.add_model(model);
    const auto frames = fixture_frames(fixtures, fixture);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

// The table's column `name` holds the golden's key `key` on every frame, and pools to its
// pooled values.
inline void expect_column(const ScoreTable& table, const std::string& name,
                          const nlohmann::json& expected, const std::string& key,
                          const std::string& what) {
    const auto& frames = expected["frames"];
    ASSERT_EQ(table.frame_count(), frames.size()) << what;
    const auto column = table.find(name);
    ASSERT_TRUE(column) << what << ": no " << name;
    for (std::size_t f = 0; f < frames.size(); ++f)
        EXPECT_EQ(table.value(*column, f), frames[f]["metrics"][key].get<double>())
            << what << " " << key << " frame " << f;
    const auto& pooled = expected["pooled_metrics"][key];
    const std::pair<PoolingMethod, const char*> methods[] = {
        {PoolingMethod::mean, "mean"},
        {PoolingMethod::harmonic_mean, "harmonic_mean"},
        {PoolingMethod::min, "min"},
        {PoolingMethod::max, "max"}};
    for (const auto& [method, label] : methods)
        EXPECT_EQ(table.pooled(*column, method), pooled[label].get<double>())
            << what << " " << key << " pooled " << label;
}

// Every per-frame key of the golden, and nothing else, is a column of the table with the same
// values. (nlohmann::json sorts object keys; the key order is checked through the CLI.)
inline void expect_matches(const ScoreTable& table, const nlohmann::json& expected,
                           const std::string& what) {
    const auto& metrics = expected["frames"][0]["metrics"];
    ASSERT_EQ(table.column_count(), metrics.size()) << what;
    for (const auto& [key, value] : metrics.items()) expect_column(table, key, expected, key, what);
}

}  // namespace vq::test
