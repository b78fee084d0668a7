// CAMBI twins where a top-k sum is too large for the reference's double sum to be exact (spec
// cambi.md §15.3): 4K banded frames (cambi_order_content.hpp) on which scale 0's sum is
// order-dependent, with t = 0 and with t > 0, beside a plain ramp. By default the CUDA twin must
// give the exactly rounded mean and its receipt must count those frames; with
// reference_order=true it must give the CPU twin's scores (the reference's order) bit for bit.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_cuda_test_support.hpp"
#include "cambi_order_content.hpp"
#include "cuda_test_support.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"
#include "metrics/cambi/cambi_exact_sum.hpp"
#include "vq/session.hpp"

namespace vq::cambi::test {
namespace {

using ::vq::test::run_twin;

// With full_ref each content is distorted in one frame and reference in another, so both
// pictures' flags and copies are exercised. Six frames: the executor's four result blocks (and
// their copy areas) are reused. zero_kth or small_kth is in four of the six pairs. Seed 7 is the
// one cambi_exact_sum_test.cpp checks.
std::vector<FramePair> order_clip() {
    const Picture zero = order_content_picture(OrderContent::zero_kth, 7);
    const Picture small = order_content_picture(OrderContent::small_kth, 7);
    const Picture ramp = order_content_picture(OrderContent::ramp, 7);
    return {{ramp, zero, 0},  {small, ramp, 1}, {ramp, ramp, 2},
            {zero, small, 3}, {ramp, ramp, 4},  {ramp, zero, 5}};
}
constexpr std::uint64_t order_dependent_frames = 4;

// The exactly rounded mean of every scale (§15.3: what the CUDA twin gives by default), from the
// CPU twin's planes, and whether any scale's sum is order-dependent.
struct ExactScore {
    double score = 0;
    bool order_dependent = false;
};

ExactScore exactly_rounded_score(const Picture& picture, const Config& config,
                                 const PictureGeometry& geometry) {
    ExactScore result;
    std::array<double, num_scales> pooled{};
    const auto planes = scale_planes(picture, config, geometry);
    for (std::size_t s = 0; s < planes.size(); ++s) {
        std::vector<float> c = planes[s];
        const std::size_t k = top_k_count(c.size(), config.topk);
        std::nth_element(c.begin(), c.begin() + std::ptrdiff_t(k - 1), c.end(),
                         std::greater<float>());
        float smallest = 0;
        for (const float v : planes[s])
            if (v != 0 && (smallest == 0 || v < smallest)) smallest = v;
        unsigned __int128 sum = 0;
        for (std::size_t i = 0; i < k; ++i)
            sum += (unsigned __int128)(std::ldexp(double(c[i]), 24));
        pooled[s] = exact_top_k_mean(sum, k);
        result.order_dependent = result.order_dependent ||
                                 !top_k_sum_is_exact(sum, std::bit_cast<std::uint32_t>(c[k - 1]),
                                                     std::bit_cast<std::uint32_t>(smallest) >> 16);
    }
    result.score = combine_scales(pooled, geometry.window);
    return result;
}

std::uint64_t note(const Feature& feature, const std::string& name) {
    for (const ReceiptNote& n : feature.receipt_notes())
        if (n.name == name) return n.count;
    ADD_FAILURE() << "no receipt note " << name;
    return 0;
}

// The options of the issue's measurements (defaults, tvi_threshold 0.012, max_log_contrast 3).
class CudaCambiOrderDependentSums : public testing::TestWithParam<std::string> {};

TEST_P(CudaCambiOrderDependentSums, DefaultGivesTheExactlyRoundedMeanAndCountsTheFrames) {
    VQ_REQUIRE_CUDA();
    const std::string request = "cambi=full_ref=true" + GetParam();
    const auto frames = order_clip();
    const VideoFormat& format = frames.at(0).distorted.format();
    Scorer scorer(cambi_options(request));
    scorer.init(format);
    const Config& config = scorer.config();
    auto gpu = make_cuda_twin(request);
    gpu->init(format);
    const auto got = run_twin(*gpu, frames);
    std::uint64_t frames_with = 0;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const ExactScore distorted =
            exactly_rounded_score(frames[f].distorted, config, config.distorted);
        const ExactScore reference =
            exactly_rounded_score(frames[f].reference, config, config.reference);
        frames_with += distorted.order_dependent || reference.order_dependent;
        std::vector<double> expected(3);
        scorer.finish(Block{distorted.score, reference.score, 0}, expected);
        for (std::size_t k = 0; k < expected.size(); ++k)
            EXPECT_EQ(got[f][k], expected[k])
                << request << " frame " << f << " output " << k << std::hexfloat
                << ": exactly rounded " << expected[k] << ", cuda " << got[f][k];
    }
    EXPECT_EQ(frames_with, order_dependent_frames);
    EXPECT_EQ(note(*gpu, "order_dependent_frames"), frames_with);
    EXPECT_GE(note(*gpu, "order_dependent_scales"), frames_with);
}

TEST_P(CudaCambiOrderDependentSums, ReferenceOrderMatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const std::string request = "cambi=full_ref=true:reference_order=true" + GetParam();
    const auto frames = order_clip();
    const VideoFormat& format = frames.at(0).distorted.format();
    auto cpu = make_cpu_twin(request);
    auto gpu = make_cuda_twin(request);
    cpu->init(format);
    gpu->init(format);
    const auto expected = run_twin(*cpu, frames);
    const auto got = run_twin(*gpu, frames);
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < expected[f].size(); ++k)
            EXPECT_EQ(got[f][k], expected[f][k])
                << request << " frame " << f << " output " << k << std::hexfloat << ": cpu "
                << expected[f][k] << ", cuda " << got[f][k];
    EXPECT_EQ(note(*gpu, "order_dependent_frames"), order_dependent_frames);
    // Without the option the CUDA twin differs from the CPU twin somewhere on this clip: the
    // option is what makes them equal.
    auto plain = make_cuda_twin("cambi=full_ref=true" + GetParam());
    plain->init(format);
    const auto without = run_twin(*plain, frames);
    std::size_t differing_without = 0;
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < expected[f].size(); ++k)
            differing_without += without[f][k] != expected[f][k];
    EXPECT_GT(differing_without, 0u);
}

std::string option_name(const testing::TestParamInfo<std::string>& info) {
    return info.param.empty() ? std::string("defaults")
                              : info.param.substr(1, info.param.find('=') - 1);
}

INSTANTIATE_TEST_SUITE_P(Cambi, CudaCambiOrderDependentSums,
                         testing::Values("", ":tvi_threshold=0.012", ":max_log_contrast=3"),
                         option_name);

// Through vq::Session, as the CLI runs it: the run's receipt carries the counts and the log line.
TEST(CudaCambiOrderDependentReceipt, SessionReceiptCarriesTheCounts) {
    VQ_REQUIRE_CUDA();
    const auto frames = order_clip();
    SessionConfig config;
    config.backend = Backend::cuda;
    Session session(config);
    session.add_feature("cambi=full_ref=true");
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    const ScoreTable table = session.finish();
    ASSERT_EQ(table.receipts().size(), 1u);
    const auto& notes = table.receipts()[0].notes;
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0].name, "order_dependent_frames");
    EXPECT_EQ(notes[0].count, order_dependent_frames);
    EXPECT_NE(notes[0].message.find("on 4 of 6 frames"), std::string::npos) << notes[0].message;
    EXPECT_EQ(notes[1].name, "order_dependent_scales");
    EXPECT_EQ(session.receipts().at(0).notes.at(0).count, order_dependent_frames);
}

}  // namespace
}  // namespace vq::cambi::test
