// SSIM's kernel variants: every one this CPU runs gives the baseline's bits, row by row on
// adversarial rows (every tap count the metric uses, widths around the vector lengths, flat
// moments where the clamps act, negative samples from the 9x9 kernel) and through whole stages
// on pictures of every content, at odd sizes and every depth.
#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "ssim_test_support.hpp"

namespace vq::test {
namespace {

using ssim::FloatPlane;

std::uint32_t bits(float v) { return std::bit_cast<std::uint32_t>(v); }
std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

void expect_same_sums(const ssim::Sums& a, const ssim::Sums& b, const std::string& what) {
    EXPECT_EQ(bits(a.ssim), bits(b.ssim)) << what;
    EXPECT_EQ(bits(a.l), bits(b.l)) << what;
    EXPECT_EQ(bits(a.c), bits(b.c)) << what;
    EXPECT_EQ(bits(a.s), bits(b.s)) << what;
}

bool same_bits(const FloatPlane& a, const FloatPlane& b) {
    return a.width == b.width && a.height == b.height &&
           std::memcmp(a.samples.data(), b.samples.data(), a.samples.size() * sizeof(float)) == 0;
}

TEST(SsimKernels, EveryVariantListedBaselineLast) {
    ASSERT_FALSE(ssim::available_kernels().empty());
    EXPECT_STREQ(ssim::available_kernels().back().instruction_set, "baseline");
    for (const auto& k : ssim::available_kernels())
        std::printf("[ ssim ] variant %s\n", k.instruction_set);
}

TEST(SsimKernels, WeightedSumRowMatchesTheBaseline) {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> sample(-40.0f, 300.0f);
    std::uniform_real_distribution<float> weight(-0.1f, 0.4f);
    const int tap_counts[] = {11, 81, 4, 9, 16, 25, 100, 1};
    const int widths[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257};
    for (const int taps : tap_counts)
        for (const int width : widths) {
            // Every tap reads its own run of `width` samples.
            std::vector<float> samples(std::size_t(taps) * width);
            for (float& v : samples) v = sample(random);
            std::vector<const float*> sources(taps);
            std::vector<float> weights(taps);
            for (int t = 0; t < taps; ++t) {
                sources[t] = samples.data() + std::size_t(t) * width;
                weights[t] = t % 3 == 0 ? ssim::gaussian[t % 11] : weight(random);
            }
            std::vector<float> expected(width), actual(width);
            baseline_kernels().weighted_sum_row(sources.data(), weights.data(), taps, width,
                                                expected.data());
            for (const auto& k : ssim::available_kernels()) {
                std::fill(actual.begin(), actual.end(), -1.0f);
                k.weighted_sum_row(sources.data(), weights.data(), taps, width, actual.data());
                for (int x = 0; x < width; ++x)
                    ASSERT_EQ(bits(actual[x]), bits(expected[x]))
                        << k.instruction_set << " taps " << taps << " width " << width << " x "
                        << x;
            }
        }
}

// Moment rows as the blur makes them, and the cases the clamps exist for: flat windows, where
// the variance comes out slightly negative and the covariance too (both clamps), zeros, and
// anti-correlated windows.
std::vector<Moments> adversarial_moments(int width, std::mt19937& random) {
    std::uniform_real_distribution<float> mean(-20.0f, 280.0f);
    std::uniform_real_distribution<float> spread(0.0f, 3000.0f);
    std::vector<Moments> m(width);
    for (int x = 0; x < width; ++x) {
        const float mu_r = mean(random), mu_d = mean(random);
        switch (x % 5) {
        case 0:  // flat and identical: tiny negative variances and covariance
            m[x] = {mu_r, mu_r, mu_r * mu_r - 0.0078125f, mu_r * mu_r - 0.0078125f,
                    mu_r * mu_r - 0.0249f};
            break;
        case 1: m[x] = {0, 0, 0, 0, 0}; break;
        case 2:  // anti-correlated
            m[x] = {mu_r, mu_d, mu_r * mu_r + spread(random), mu_d * mu_d + spread(random),
                    mu_r * mu_d - spread(random)};
            break;
        default:
            m[x] = {mu_r, mu_d, mu_r * mu_r + spread(random), mu_d * mu_d + spread(random),
                    mu_r * mu_d + spread(random) - 1000.0f};
        }
    }
    return m;
}

TEST(SsimKernels, TermsRowMatchesTheBaseline) {
    std::mt19937 random(11);
    for (const int width : {1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 101, 1910}) {
        const std::vector<Moments> m = adversarial_moments(width, random);
        std::vector<float> rows[5];
        for (auto& row : rows) row.resize(width);
        for (int x = 0; x < width; ++x) {
            rows[0][x] = m[x].mu_r;
            rows[1][x] = m[x].mu_d;
            rows[2][x] = m[x].e_rr;
            rows[3][x] = m[x].e_dd;
            rows[4][x] = m[x].e_rd;
        }
        const ssim::MomentRows moment_rows{rows[0].data(), rows[1].data(), rows[2].data(),
                                           rows[3].data(), rows[4].data()};
        ssim::Sums expected{1.5, 0.25, -3, 7};  // rows add to the sums so far
        const ssim::Sums start = expected;
        baseline_kernels().accumulate_terms_row(moment_rows, width, expected);
        for (const auto& k : ssim::available_kernels()) {
            ssim::Sums actual = start;
            k.accumulate_terms_row(moment_rows, width, actual);
            expect_same_sums(actual, expected,
                             std::string(k.instruction_set) + " width " + std::to_string(width));
        }
    }
}

// Whole stages: the statistics of every scale and both decimations, per variant.
TEST(SsimKernels, StagesMatchTheBaselineOnEveryContent) {
    const Content contents[] = {Content::noise,  Content::texture,   Content::ramp,
                                Content::flat,   Content::extremes,  Content::banded,
                                Content::maxima, Content::patchwork, Content::staircase};
    const VideoFormat formats[] = {{67, 45, 8, ChromaFormat::yuv420},
                                   {176, 179, 10, ChromaFormat::yuv422},
                                   {41, 97, 12, ChromaFormat::yuv444},
                                   {33, 30, 16, ChromaFormat::yuv420}};
    std::uint32_t seed = 1;
    for (const VideoFormat& format : formats)
        for (const Content content : contents) {
            const Picture ref = make_picture(format, content, seed++);
            const Picture dist = perturbed(ref, 1 << (format.bit_depth - 5), seed++);
            const FloatPlane r = float_luma(ref), d = float_luma(dist);
            ssim::Scratch scratch;
            const ssim::Means expected = ssim::statistics(r, d, baseline_kernels(), scratch);
            FloatPlane expected_lpf, expected_box;
            ssim::decimate(r.view(), 1.0f, 2, ssim::lpf, ssim::lpf_taps, baseline_kernels(),
                           scratch, expected_lpf);
            ssim::decimate(r.view(), 1.0f, 3, ssim::box_kernel(3), 3, baseline_kernels(), scratch,
                           expected_box);
            for (const auto& k : ssim::available_kernels()) {
                SCOPED_TRACE(testing::Message()
                             << k.instruction_set << " " << format << " " << to_string(content));
                const ssim::Means actual = ssim::statistics(r, d, k, scratch);
                EXPECT_EQ(bits(actual.ssim), bits(expected.ssim));
                EXPECT_EQ(bits(actual.l), bits(expected.l));
                EXPECT_EQ(bits(actual.c), bits(expected.c));
                EXPECT_EQ(bits(actual.s), bits(expected.s));
                FloatPlane lpf, box;
                ssim::decimate(r.view(), 1.0f, 2, ssim::lpf, ssim::lpf_taps, k, scratch, lpf);
                ssim::decimate(r.view(), 1.0f, 3, ssim::box_kernel(3), 3, k, scratch, box);
                EXPECT_TRUE(same_bits(lpf, expected_lpf));
                EXPECT_TRUE(same_bits(box, expected_box));
            }
        }
}

// float_ssim decimates a picture's luma as it reads it (spec §3 on the fly): the same plane as
// decimating the converted luma, at every depth and factor.
TEST(SsimKernels, DecimatingThePictureEqualsDecimatingItsFloatLuma) {
    std::uint32_t seed = 40;
    for (const int depth : {8, 10, 12, 16})
        for (const int factor : {2, 3, 4, 5, 10}) {
            const Picture picture =
                make_picture({117, 64, depth, ChromaFormat::yuv420}, Content::noise, seed++);
            const std::vector<float> box = ssim::box_kernel(factor);
            ssim::Scratch scratch;
            FloatPlane expected, actual;
            ssim::decimate(float_luma(picture).view(), 1.0f, factor, box, factor,
                           baseline_kernels(), scratch, expected);
            const float reciprocal = 1.0f / ssim::luma_divisor(depth);
            with_sample_type(depth, [&](auto sample) {
                ssim::decimate(picture.plane<decltype(sample)>(0), reciprocal, factor, box, factor,
                               ssim::best_kernels(), scratch, actual);
            });
            EXPECT_TRUE(same_bits(actual, expected)) << depth << "-bit, factor " << factor;
        }
}

}  // namespace
}  // namespace vq::test
