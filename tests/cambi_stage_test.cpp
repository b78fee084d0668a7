// CAMBI stages against the spec's tables (§3, §5, §6, §7, §14) and against naive models of their
// definitions on adversarial planes (flat, extremes, noise, banded ramps, odd and tiny sizes).

#include <bit>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_test_support.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_lut.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq::cambi::test {
namespace {

std::vector<int> thresholds(Eotf eotf, double tvi, int mlc = 5) {
    const ContrastParams c = contrast_params(eotf, tvi, 0.0, mlc);
    return {c.tvi.begin(), c.tvi.begin() + c.num_diffs};
}

// A threshold row of §5.5: the listed values, then 1023 up to δ = 32.
std::vector<int> row(std::vector<int> listed) {
    listed.resize(32, 1023);
    return listed;
}

TEST(CambiLuminance, EndPoints) {
    EXPECT_EQ(luminance(Eotf::bt1886, 64), 0.0099999999999999985);
    EXPECT_EQ(luminance(Eotf::bt1886, 940), 300.0);
    EXPECT_EQ(luminance(Eotf::bt1886, 0), luminance(Eotf::bt1886, 64));  // codes clamp to 64..940
    EXPECT_EQ(luminance(Eotf::pq, 64), 0.0);
    EXPECT_EQ(luminance(Eotf::pq, 940), 10000.0);
}

TEST(CambiLuminance, ThresholdTables) {
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.019), row({178, 305, 432, 559, 686, 813}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.012), row({252, 453, 653, 854}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.03),
              row({132, 213, 293, 374, 455, 536, 616, 697, 778, 858}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.01), row({292, 533, 773}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.05), row({100, 149, 197, 246, 295, 344, 392, 441, 490, 538,
                                                   587, 636, 684, 733, 782, 830, 879}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 1.0),
              (std::vector<int>{0,   0,   0,   0,   66,  69,  72,  75,  78,  81,  84,
                                87,  90,  93,  96,  99,  102, 105, 108, 111, 114, 117,
                                120, 123, 126, 129, 132, 135, 138, 141, 144, 147}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.0001), row({}));
    EXPECT_EQ(thresholds(Eotf::pq, 0.019), row({233}));
    EXPECT_EQ(thresholds(Eotf::pq, 0.012), row({455}));
    EXPECT_EQ(thresholds(Eotf::pq, 0.03), row({152, 315}));
    EXPECT_EQ(thresholds(Eotf::pq, 0.05), row({110, 179, 277, 433}));
    EXPECT_EQ(thresholds(Eotf::pq, 1.0),
              (std::vector<int>{66,  68,  70,  72,  75,  78,  81,  83,  86,  90,  93,
                                96,  100, 103, 107, 110, 114, 118, 122, 126, 131, 135,
                                140, 144, 149, 154, 159, 164, 169, 175, 180, 186}));
    EXPECT_EQ(thresholds(Eotf::bt1886, 0.019, 0), std::vector<int>{178});
}

TEST(CambiLuminance, VisibilityLuminanceCodes) {
    const auto code = [](Eotf eotf, double nits) {
        return contrast_params(eotf, 0.019, nits, 2).vis_lum;
    };
    const std::vector<std::pair<double, int>> bt1886 = {
        {0, 0},   {0.01, 65}, {0.06, 78}, {0.1, 84},    {1, 135},
        {5, 214}, {10, 268},  {100, 614}, {299.9, 940}, {300, 940}};
    for (const auto& [nits, expected] : bt1886)
        EXPECT_EQ(code(Eotf::bt1886, nits), expected) << nits;
    const std::vector<std::pair<double, int>> pq = {
        {0.01, 83}, {0.06, 108}, {0.1, 119}, {1, 196}, {5, 282}, {10, 327}, {100, 510}, {300, 609}};
    for (const auto& [nits, expected] : pq) EXPECT_EQ(code(Eotf::pq, nits), expected) << nits;
}

TEST(CambiLut, RuleMatchesSpecTable) {
    const auto shared = vq::test::shared_dir();
    if (!shared) GTEST_SKIP() << "../shared not found: the table file is not available";
    std::ifstream file(*shared / "spec" / "cambi_reciprocal_lut.txt");
    ASSERT_TRUE(file);
    std::string line;
    int i = 0;
    for (; std::getline(file, line); ++i) {
        ASSERT_LT(i, reciprocal_lut_size);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(reciprocal_lut[std::size_t(i)]),
                  std::bit_cast<std::uint32_t>(std::strtof(line.c_str(), nullptr)))
            << "LUT[" << i << "] = " << line;
    }
    EXPECT_EQ(i, reciprocal_lut_size);
}

TEST(CambiLut, FortyTwoEntriesDifferFromTheCorrectlyRoundedReciprocal) {
    int differ = 0;
    for (int i = 1; i < reciprocal_lut_size; ++i)
        differ += reciprocal_lut[std::size_t(i)] != 1.0f / float(i);
    EXPECT_EQ(differ, 42);
}

TEST(CambiInit, MaskThresholds) {
    const std::vector<std::tuple<int, int, int>> cases = {
        {3840, 2160, 24}, {2560, 1440, 22}, {1920, 1080, 21}, {1919, 1081, 21}, {1280, 720, 19},
        {960, 540, 18},   {641, 359, 16},   {640, 360, 16},   {576, 324, 16},   {480, 270, 15},
        {320, 240, 13},   {320, 180, 13},   {288, 162, 12},   {256, 144, 12},   {240, 180, 12},
        {216, 216, 13},   {6000, 4000, 27}, {7680, 4320, 27}, {63, 5000, 7},    {5000, 63, 7}};
    for (const auto& [w, h, tm] : cases) EXPECT_EQ(mask_threshold(w, h), tm) << w << "x" << h;
}

TEST(CambiInit, AdjustedWindows) {
    const std::vector<std::tuple<int, int, int, int>> cases = {
        // W, H, ws, ws with S
        {7680, 4320, 131, 65}, {3840, 2160, 65, 33}, {2560, 1440, 43, 23}, {1920, 1080, 33, 17},
        {1919, 1081, 33, 17},  {1280, 720, 21, 11},  {960, 540, 17, 9},    {641, 359, 11, 5},
        {640, 360, 11, 5},     {576, 324, 9, 5},     {480, 270, 9, 5},     {320, 240, 7, 3},
        {320, 180, 5, 3},      {288, 162, 5, 3},     {256, 144, 5, 3},     {240, 180, 5, 3},
        {216, 216, 5, 3}};
    for (const auto& [w, h, ws, ws_s] : cases) {
        EXPECT_EQ(adjusted_window(65, w, h, false), ws) << w << "x" << h;
        EXPECT_EQ(adjusted_window(65, w, h, true), ws_s) << w << "x" << h;
    }
    EXPECT_EQ(adjusted_window(66, 3840, 2160, false), 67);
    EXPECT_EQ(adjusted_window(127, 1920, 1080, false), 63);
    EXPECT_EQ(adjusted_window(15, 216, 100, false), 1);
}

TEST(CambiConvert, BitDepths) {
    const auto one = [](int bit_depth, unsigned v) {
        Picture p = Picture::allocate(
            {.width = 1, .height = 1, .bit_depth = bit_depth, .chroma = ChromaFormat::yuv400});
        if (bit_depth == 8)
            p.plane_data<std::uint8_t>(0)[0] = std::uint8_t(v);
        else
            p.plane_data<std::uint16_t>(0)[0] = std::uint16_t(v);
        PictureGeometry g;
        g.width = g.height = g.input_width = g.input_height = 1;
        std::uint16_t out = 0;
        convert_luma(p, g, &out);
        return int(out);
    };
    EXPECT_EQ(one(8, 255), 1020);
    EXPECT_EQ(one(9, 511), 1022);
    EXPECT_EQ(one(10, 1023), 1023);
    EXPECT_EQ(one(11, 1), 1);  // (1 + 1) >> 1: round half up
    EXPECT_EQ(one(11, 2047), 1024);
    EXPECT_EQ(one(12, 1), 0);  // (1 + 2) >> 2
    EXPECT_EQ(one(12, 2), 1);
    EXPECT_EQ(one(16, 65535), 1024);  // top codes become 1024, an 11-bit value kept as is
    EXPECT_EQ(one(16, 32), 1);
}

TEST(CambiConvert, SampleAboveBitDepthIsRejected) {
    Picture p = Picture::allocate(
        {.width = 4, .height = 4, .bit_depth = 10, .chroma = ChromaFormat::yuv420});
    EXPECT_NO_THROW(check_luma_range(p));
    p.plane_data<std::uint16_t>(0)[5] = 1024;
    EXPECT_THROW(check_luma_range(p), vq::Error);
}

// ---- Stages against naive models ----

enum class Content { flat, extremes, noise, banded, sparse_mask_noise };

std::vector<std::uint16_t> plane(Content content, int w, int h, std::mt19937& rng, int base = 160) {
    std::vector<std::uint16_t> p(std::size_t(w) * std::size_t(h));
    std::uniform_int_distribution<int> small(-2, 2);
    std::uniform_int_distribution<int> full(0, 1024);
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            int v = base;
            switch (content) {
            case Content::flat: break;
            case Content::extremes: v = (i + j) % 3 == 0 ? 0 : 1024; break;
            case Content::noise: v = full(rng); break;
            case Content::banded:
                v = base + (2 * j + i) / 7 + (rng() % 13 == 0 ? small(rng) : 0);
                break;
            case Content::sparse_mask_noise: v = base + small(rng); break;
            }
            p[std::size_t(i * w + j)] = std::uint16_t(std::clamp(v, 0, 1024));
        }
    return p;
}

constexpr Content all_contents[] = {Content::flat, Content::extremes, Content::noise,
                                    Content::banded, Content::sparse_mask_noise};
const std::vector<std::pair<int, int>> sizes = {{1, 1}, {1, 9},   {9, 1},   {2, 2},  {3, 5},
                                                {7, 7}, {16, 16}, {33, 17}, {64, 3}, {40, 41}};

TEST(CambiStages, AntiDitherMatchesDefinition) {
    std::mt19937 rng(1);
    for (const auto& [w, h] : sizes) {
        const auto p = plane(Content::noise, w, h, rng);
        std::vector<std::uint16_t> expected(p.size());
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < w; ++j) {
                const auto at = [&](int a, int b) { return int(p[std::size_t(a * w + b)]); };
                int v = at(i, j);
                if (i + 1 < h && j + 1 < w)
                    v = (at(i, j) + at(i, j + 1) + at(i + 1, j) + at(i + 1, j + 1)) >> 2;
                else if (i + 1 < h)
                    v = (at(i, j) + at(i + 1, j)) >> 1;
                else if (j + 1 < w)
                    v = (at(i, j) + at(i, j + 1)) >> 1;
                expected[std::size_t(i * w + j)] = std::uint16_t(v);
            }
        auto actual = p;
        anti_dither(actual.data(), w, h);
        EXPECT_EQ(actual, expected) << w << "x" << h;
    }
}

TEST(CambiStages, SpatialMaskMatchesDefinition) {
    std::mt19937 rng(2);
    for (const Content content : all_contents)
        for (const auto& [w, h] : sizes)
            for (const int threshold : {0, 7, 12, 24, 48}) {
                const auto p = plane(content, w, h, rng);
                std::vector<std::uint8_t> mask(p.size());
                spatial_mask(p.data(), w, h, threshold, mask.data());
                EXPECT_EQ(mask, naive_mask(p, w, h, threshold))
                    << w << "x" << h << " Tm " << threshold;
            }
}

TEST(CambiStages, ModeFilterMatchesDefinition) {
    std::mt19937 rng(3);
    for (const Content content : all_contents)
        for (const auto& [w, h] : sizes) {
            const auto p = plane(content, w, h, rng);
            auto actual = p;
            mode_filter(actual.data(), w, h);
            EXPECT_EQ(actual, naive_mode_filter(p, w, h)) << w << "x" << h;
        }
}

TEST(CambiStages, DecimateKeepsEvenSamplesInPlace) {
    std::vector<std::uint16_t> p(5 * 3);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = std::uint16_t(i);
    decimate(p.data(), 5, 3, p.data());
    EXPECT_EQ(std::vector<std::uint16_t>(p.begin(), p.begin() + 6),
              (std::vector<std::uint16_t>{0, 2, 4, 10, 12, 14}));
}

ContrastParams contrast_for(int mlc, double tvi, double vlt, Eotf eotf = Eotf::bt1886) {
    return contrast_params(eotf, tvi, vlt, mlc);
}

TEST(CambiStages, CValuesMatchDefinition) {
    std::mt19937 rng(4);
    const std::vector<ContrastParams> contrasts = {
        default_contrast(),
        contrast_for(0, 0.019, 0),
        contrast_for(5, 0.019, 0),
        contrast_for(3, 1.0, 0),
        contrast_for(2, 0.0001, 0),  // T = 1023 everywhere: 1024-valued neighbours count
        contrast_for(2, 0.019, 0.06),
        contrast_for(4, 0.05, 1.0),
        contrast_for(2, 0.019, 0, Eotf::pq)};
    for (const Content content : all_contents)
        for (const auto& [w, h] : sizes)
            for (const int window : {1, 3, 5, 9, 65})
                for (const auto& contrast : contrasts)
                    for (const int base : {0, 160, 1019}) {
                        const auto y = plane(content, w, h, rng, base);
                        std::vector<std::uint8_t> mask(y.size());
                        for (auto& m : mask) m = rng() % 5 != 0;
                        std::vector<float> c(y.size());
                        c_values(y.data(), mask.data(), w, h, window, contrast, c.data());
                        for (int i = 0; i < h; ++i)
                            for (int j = 0; j < w; ++j)
                                ASSERT_EQ(c[std::size_t(i * w + j)],
                                          naive_c_value(y, mask, w, h, window, contrast, i, j))
                                    << w << "x" << h << " ws " << window << " at " << i << "," << j;
                    }
}

TEST(CambiStages, VisLumThresholdAboveEveryGateGivesZero) {
    // §16.2: V_lt >= T_N + 2N closes every gate; the reference crashes there, vq returns 0.
    const ContrastParams contrast = contrast_for(2, 0.019, 100.0);
    ASSERT_TRUE(value_band(contrast).empty());
    std::mt19937 rng(5);
    const auto y = plane(Content::banded, 40, 41, rng);
    const std::vector<std::uint8_t> mask(y.size(), 1);
    std::vector<float> c(y.size(), -1.0f);
    c_values(y.data(), mask.data(), 40, 41, 9, contrast, c.data());
    for (const float v : c) ASSERT_EQ(v, 0.0f);
}

// ---- Pooling ----

TEST(CambiPooling, TopKCount) {
    EXPECT_EQ(top_k_count(256, 0.6), 153u);
    EXPECT_EQ(top_k_count(9, 0.6), 5u);
    EXPECT_EQ(top_k_count(1, 0.0001), 1u);
    EXPECT_EQ(top_k_count(10, 1.0), 10u);
}

// A c-value plane: zeros and values of the form W·p0·q · LUT[p0 + q], as c_values makes them.
std::vector<float> c_plane(std::size_t n, std::mt19937& rng, double zero_share, int max_count) {
    std::vector<float> c(n);
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> count(1, max_count);
    std::uniform_int_distribution<int> weight(1, 9);
    for (auto& v : c) {
        if (u(rng) < zero_share) continue;
        const int p0 = count(rng);
        const int q = std::min(count(rng), 4225 - p0);
        v = float(weight(rng) * p0 * q) * reciprocal_lut[std::size_t(p0 + q)];
    }
    return c;
}

TEST(CambiPooling, TopKMeanEqualsLiteralQuickSelectSum) {
    std::mt19937 rng(6);
    for (const std::size_t n : {1u, 2u, 3u, 10u, 257u, 4096u, 100000u})
        for (const double zeros : {0.0, 0.3, 0.9, 1.0})
            for (const int max_count : {1, 3, 40, 2112})
                for (const double topk : {0.0001, 0.2, 0.6, 1.0}) {
                    auto c = c_plane(n, rng, zeros, max_count);
                    const double expected = literal_top_k_mean(c, topk);
                    EXPECT_EQ(top_k_mean(c, topk), expected)
                        << n << " " << zeros << " " << max_count << " " << topk;
                }
}

TEST(CambiPooling, OrderDependentSumFallsBackToQuickSelectOrder) {
    // Huge values next to small ones: partial sums round, so only the reference order is right.
    std::mt19937 rng(7);
    std::vector<float> c(std::size_t(1) << 21);
    for (std::size_t i = 0; i < c.size(); ++i)
        c[i] = i % 3 == 0 ? 9000.0f + float(rng() % 500) : 0.5f + float(rng() % 7) / 3.0f;
    const double expected = literal_top_k_mean(c, 0.6);
    EXPECT_EQ(top_k_mean(c, 0.6), expected);
    std::vector<float> sorted = c;
    std::sort(sorted.begin(), sorted.end(), std::greater<float>());
    double descending = 0;
    for (std::size_t t = 0; t < top_k_count(c.size(), 0.6); ++t) descending += sorted[t];
    EXPECT_NE(descending / double(top_k_count(c.size(), 0.6)), expected)
        << "the test plane no longer exercises an order-dependent sum";
}

TEST(CambiPooling, CombineScales) {
    EXPECT_EQ(combine_scales({1.1440683782490251, 1.3750000094112598, 1.6074074308077495,
                              0.66666668653488159, 0.0},
                             3),
              0x1.079856be2732bp+2);
}

}  // namespace
}  // namespace vq::cambi::test
