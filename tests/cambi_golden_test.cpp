// CAMBI against the reference's golden outputs (the table in support/golden_cases.cpp): every
// per-frame value must match to the last bit. The feature is driven directly (init, compute,
// finish), with its options bound through the registry as the CLI does.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "feature/registry.hpp"
#include "io/frame_source.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "support/golden_cases.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

using test::GoldenCase;

std::unique_ptr<CpuFeature> make_cambi(const std::string& request_text) {
    const FeatureRequest request = parse_feature_request(request_text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    return definition.make_cpu(bind_options(request.name, definition.options, request.options));
}

class CambiGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(CambiGolden, EveryFrameBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    const auto golden = test::read_golden(c);

    auto feature = make_cambi(c.request);
    auto distorted = open_y4m((fixtures / c.fixture / "dist.y4m").string());
    auto reference = open_y4m((fixtures / c.fixture / "ref.y4m").string());
    feature->init(distorted->format());
    const auto names = feature->outputs();
    std::vector<std::byte> block(feature->block_bytes());
    std::vector<double> scores(names.size());

    std::size_t frame = 0;
    int compared = 0;
    while (auto picture = distorted->next()) {
        FramePair pair{.reference = {}, .distorted = std::move(*picture)};
        auto ref_picture = reference->next();
        ASSERT_TRUE(ref_picture);
        if (feature->uses_reference()) pair.reference = std::move(*ref_picture);
        feature->compute(pair, block);
        feature->finish(block, scores);
        ASSERT_LT(frame, golden["frames"].size());
        const auto& metrics = golden["frames"][frame]["metrics"];
        for (std::size_t k = 0; k < names.size(); ++k) {
            ASSERT_TRUE(metrics.contains(names[k])) << c.golden << ": no key " << names[k];
            const double expected = metrics[names[k]].get<double>();
            EXPECT_EQ(scores[k], expected)
                << c.golden << " frame " << frame << " " << names[k] << std::hexfloat << ": got "
                << scores[k] << " want " << expected;
            ++compared;
        }
        ++frame;
    }
    EXPECT_EQ(frame, golden["frames"].size());
    EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Cambi, CambiGolden, testing::ValuesIn(test::cambi_golden_cases()),
                         test::golden_case_name);

}  // namespace
}  // namespace vq
