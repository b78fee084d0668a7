// §15.3's condition as the CUDA twin tests it on the device (top_k_sum_is_exact, from the k-th
// largest value t or the top 16 bits of the plane's smallest non-zero value), on the host: against
// the spec's own statement of it (m the smallest non-zero of the k largest), against the CPU twin's
// pooled values (where it holds, the reference's order gives the exactly rounded mean), and on the
// 4K content of the CUDA parity test (cambi_order_content.hpp), which must make it fail at scale 0
// both with t = 0 and with t > 0, and hold on the plain ramp.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_order_content.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_exact_sum.hpp"

namespace vq::cambi::test {
namespace {

using u128 = unsigned __int128;

std::uint32_t bits(float value) { return std::bit_cast<std::uint32_t>(value); }

TEST(CambiExactSum, Bounds) {
    EXPECT_TRUE(top_k_sum_is_exact(0, 0, 0)) << "no non-zero value";
    // m = 1.0 (e = 0): exact below 2^54 in 2^-24 units, i.e. Σ < 2^30.
    EXPECT_TRUE(top_k_sum_is_exact((u128(1) << 54) - 1, bits(1.0f), 0));
    EXPECT_FALSE(top_k_sum_is_exact(u128(1) << 54, bits(1.0f), 0));
    // m = 0.5 (e = -1), the smallest non-zero c-value; m = 1.99 has the exponent of 1.
    EXPECT_FALSE(top_k_sum_is_exact(u128(1) << 53, bits(0.5f), 0));
    EXPECT_TRUE(top_k_sum_is_exact((u128(1) << 54) - 1, bits(1.99f), 0));
    // t = 0: m's exponent from the top 16 bits of the smallest non-zero value.
    EXPECT_TRUE(top_k_sum_is_exact((u128(1) << 55) - 1, 0, bits(2.5f) >> 16));
    EXPECT_FALSE(top_k_sum_is_exact(u128(1) << 55, 0, bits(2.5f) >> 16));
    // The largest c-values (< 2^14) and a sum beyond 64 bits.
    EXPECT_TRUE(top_k_sum_is_exact((u128(1) << 67) - 1, bits(9000.0f), 0));
    EXPECT_FALSE(top_k_sum_is_exact(u128(1) << 67, bits(9000.0f), 0));
}

// Everything the device knows of one plane, found here by sorting, and the spec's m.
struct PlaneFacts {
    std::size_t k = 0;
    u128 sum = 0;                      // Σ of the k largest · 2^24
    std::uint32_t kth = 0;             // t
    std::uint32_t smallest_top16 = 0;  // of the plane's smallest non-zero value, 0: none
    float spec_m = 0;                  // the smallest non-zero of the k largest, 0: none
};

PlaneFacts facts(std::vector<float> c, double topk) {
    PlaneFacts f;
    f.k = top_k_count(c.size(), topk);
    float smallest = 0;
    for (const float v : c)
        if (v != 0 && (smallest == 0 || v < smallest)) smallest = v;
    f.smallest_top16 = bits(smallest) >> 16;
    std::nth_element(c.begin(), c.begin() + std::ptrdiff_t(f.k - 1), c.end(),
                     std::greater<float>());
    f.kth = bits(c[f.k - 1]);
    for (std::size_t i = 0; i < f.k; ++i) {
        f.sum += u128(std::ldexp(double(c[i]), 24));  // exact: c-values are multiples of 2^-24
        if (c[i] != 0 && (f.spec_m == 0 || c[i] < f.spec_m)) f.spec_m = c[i];
    }
    return f;
}

// §15.3 as the spec states it, m taken from the k largest themselves: Σ < 2^53·g, g = 2^(e-23),
// e = floor(log2 m); in 2^-24 units Σ·2^24 < 2^(54+e).
bool spec_condition(const PlaneFacts& f) {
    if (f.spec_m == 0) return true;
    return f.sum < u128(1) << (54 + std::ilogb(f.spec_m));
}

struct Verdicts {
    std::vector<bool> exact;  // per scale
    std::vector<bool> t_zero;
    std::vector<bool> cpu_differs;  // the CPU twin's mean is not the exactly rounded one
    bool score_differs = false;     // nor, after combining the scales, its score
};

// The device's verdict per scale, checked against the spec's and, where it holds, the CPU twin's
// pooled value against the exactly rounded mean.
Verdicts check_planes(const Picture& picture, const Options& options, const std::string& what) {
    Verdicts v;
    const Config config = resolve_config(options, picture.format());
    const auto planes = scale_planes(picture, config, config.distorted);
    std::array<double, num_scales> cpu_means{}, exact_means{};
    for (std::size_t s = 0; s < planes.size(); ++s) {
        const PlaneFacts f = facts(planes[s], config.topk);
        const bool exact = top_k_sum_is_exact(f.sum, f.kth, f.smallest_top16);
        EXPECT_EQ(exact, spec_condition(f)) << what << " scale " << s;
        std::vector<float> c = planes[s];
        const double cpu = top_k_mean(c, config.topk);
        const double exact_mean =
            std::ldexp(double(f.sum), -24) / double(f.k);  // Σ rounded once when exact
        if (exact) {
            EXPECT_EQ(cpu, exact_mean) << what << " scale " << s;
        }
        v.exact.push_back(exact);
        v.t_zero.push_back(f.kth == 0);
        v.cpu_differs.push_back(cpu != exact_mean);
        cpu_means[s] = cpu;
        exact_means[s] = exact_mean;
        std::printf("%s scale %zu: k %zu, t %g, m %g, sum %.6g: %s%s\n", what.c_str(), s, f.k,
                    double(std::bit_cast<float>(f.kth)), double(f.spec_m),
                    std::ldexp(double(f.sum), -24), exact ? "exact" : "order-dependent",
                    !exact && cpu != exact_mean ? ", CPU differs" : "");
    }
    const double cpu_score = combine_scales(cpu_means, config.distorted.window);
    const double exact_score = combine_scales(exact_means, config.distorted.window);
    std::printf("%s score: %.17g (CPU twin), %.17g (exactly rounded means)\n", what.c_str(),
                cpu_score, exact_score);
    v.score_differs = cpu_score != exact_score;
    return v;
}

// The CUDA parity test's frames do what cambi_order_content.hpp says, under the options it runs.
TEST(CambiExactSum, OrderContentFailsAtScaleZero) {
    for (const auto& [tvi, mlc] : {std::pair{0.019, 2}, std::pair{0.012, 2}, std::pair{0.019, 3}}) {
        Options options;
        options.tvi_threshold = tvi;
        options.max_log_contrast = mlc;
        const std::string at = " tvi " + std::to_string(tvi) + " mlc " + std::to_string(mlc);
        const Verdicts zero = check_planes(order_content_picture(OrderContent::zero_kth, 7),
                                           options, "zero_kth" + at);
        EXPECT_FALSE(zero.exact[0]);
        EXPECT_TRUE(zero.t_zero[0]);
        EXPECT_TRUE(zero.cpu_differs[0]) << "the reference's rounding should show on this content";
        EXPECT_TRUE(zero.score_differs) << "and in the score (the CUDA test relies on it)";
        const Verdicts small = check_planes(order_content_picture(OrderContent::small_kth, 7),
                                            options, "small_kth" + at);
        EXPECT_FALSE(small.exact[0]);
        EXPECT_FALSE(small.t_zero[0]);
        const Verdicts ramp =
            check_planes(order_content_picture(OrderContent::ramp, 7), options, "ramp" + at);
        for (std::size_t s = 0; s < ramp.exact.size(); ++s)
            EXPECT_TRUE(ramp.exact[s]) << "ramp scale " << s;
    }
}

}  // namespace
}  // namespace vq::cambi::test
