// PSNR-HVS's spec examples (spec/psnr_hvs.md): the DCT vectors of §5.3, the tables of §6, the
// 8x8 picture of §11.3 with every intermediate value, the +inf cases of §11.4 and the geometry of
// §4 and §11.5.
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

#include <gtest/gtest.h>

#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_scalar.hpp"
#include "support/pictures.hpp"
#include "vq/session.hpp"

namespace vq::psnr_hvs {
namespace {

using Matrix = std::array<int, 64>;

// --- §5.3: the 8-point transform -----------------------------------------------------------

TEST(PsnrHvsDct, SpecVectors) {
    const std::array<std::array<int, 8>, 2> vectors[] = {
        {{{255, 255, 255, 255, 255, 255, 255, 255}, {721, 0, 0, 0, 0, 0, 0, 0}}},
        {{{0, 1, 2, 3, 4, 5, 6, 7}, {9, -7, -1, 0, -1, 0, 0, 0}}},
        {{{60, 75, 90, 105, 100, 115, 130, 145}, {289, -72, -1, -18, -1, 4, 0, -5}}},
        {{{0, 255, 0, 255, 0, 255, 0, 255}, {360, -66, -1, -76, 0, -115, 0, -326}}},
        {{{4095, 0, 0, 4095, 4095, 0, 0, 4095}, {5791, 0, 0, 0, 5791, 0, 0, 0}}},
        {{{-182, -6, 0, -13, -1, 7, 0, -4}, {-71, -92, -82, -67, -71, -53, -27, -12}}},
        {{{-3, 1, -2, 5, -7, 11, -13, 17}, {3, -7, 4, -6, 6, -9, 12, -17}}},
    };
    for (const auto& [input, expected] : vectors) {
        std::int32_t x[8];
        for (int k = 0; k < 8; ++k) x[k] = input[k];
        scalar::fdct8(x, 1);
        for (int k = 0; k < 8; ++k)
            EXPECT_EQ(x[k], expected[k]) << "input " << input[0] << " k " << k;
    }
}

// --- §6: tables --------------------------------------------------------------------------------

TEST(PsnrHvsTables, MaskWeightsAreTheSpecs) {
    // clang-format off
    const float expected[3][64] = {{
    0.395959079f, 0.791918159f, 0.656449974f, 0.332367212f, 0.151678056f, 0.0694686174f, 0.0328200944f, 0.0160968006f,
    0.791918159f, 0.570153713f, 0.633256137f, 0.429872006f, 0.228643686f, 0.114001028f, 0.0567022637f, 0.0287560951f,
    0.656449974f, 0.633256137f, 0.272451103f, 0.180069014f, 0.115799844f, 0.0679582804f, 0.0380095169f, 0.0209513195f,
    0.332367212f, 0.429872006f, 0.180069014f, 0.0901789889f, 0.0553825237f, 0.0352380835f, 0.0218522977f, 0.0132089704f,
    0.151678056f, 0.228643686f, 0.115799844f, 0.0553825237f, 0.0304392744f, 0.0188029408f, 0.0120932553f, 0.00777704129f,
    0.0694686174f, 0.114001028f, 0.0679582804f, 0.0352380835f, 0.0188029408f, 0.0110333553f, 0.00698067527f, 0.00457562041f,
    0.0328200944f, 0.0567022637f, 0.0380095169f, 0.0218522977f, 0.0120932553f, 0.00698067527f, 0.00430577667f, 0.0027990411f,
    0.0160968006f, 0.0287560951f, 0.0209513195f, 0.0132089704f, 0.00777704129f, 0.00457562041f, 0.0027990411f, 0.00179667596f,
    }, {
    0.551480055f, 0.914283812f, 0.211252704f, 0.199624062f, 0.166520894f, 0.121764243f, 0.0843111947f, 0.0571278892f,
    0.914283812f, 0.379461735f, 0.222394094f, 0.288338274f, 0.267489165f, 0.208207458f, 0.149906367f, 0.10424047f,
    0.211252704f, 0.222394094f, 0.144630238f, 0.159019753f, 0.160637319f, 0.139170095f, 0.109045126f, 0.0807321444f,
    0.199624062f, 0.288338274f, 0.159019753f, 0.112014808f, 0.0970742032f, 0.0852579176f, 0.0709308535f, 0.0559432842f,
    0.166520894f, 0.267489165f, 0.160637319f, 0.0970742032f, 0.069112353f, 0.0553581752f, 0.0456778966f, 0.0371167436f,
    0.121764243f, 0.208207458f, 0.139170095f, 0.0852579176f, 0.0553581752f, 0.0399957672f, 0.0311699845f, 0.0250175651f,
    0.0843111947f, 0.149906367f, 0.109045126f, 0.0709308535f, 0.0456778966f, 0.0311699845f, 0.0228755958f, 0.0176970009f,
    0.0571278892f, 0.10424047f, 0.0807321444f, 0.0559432842f, 0.0371167436f, 0.0250175651f, 0.0176970009f, 0.0131872371f,
    }, {
    0.627572596f, 1.04043567f, 0.240401089f, 0.186101407f, 0.15524067f, 0.113515861f, 0.0785999149f, 0.0532580242f,
    1.04043567f, 0.431819379f, 0.20732902f, 0.2688061f, 0.249369308f, 0.194103345f, 0.139751643f, 0.0971791744f,
    0.240401089f, 0.20732902f, 0.134832904f, 0.148247644f, 0.149755672f, 0.129742667f, 0.101658359f, 0.075263299f,
    0.186101407f, 0.2688061f, 0.148247644f, 0.104426853f, 0.090498358f, 0.0794824958f, 0.0661259592f, 0.0521536656f,
    0.15524067f, 0.249369308f, 0.149755672f, 0.090498358f, 0.0644306391f, 0.0516081788f, 0.0425836444f, 0.0346024372f,
    0.113515861f, 0.194103345f, 0.129742667f, 0.0794824958f, 0.0516081788f, 0.0372864418f, 0.0290585123f, 0.0233228635f,
    0.0785999149f, 0.139751643f, 0.101658359f, 0.0661259592f, 0.0425836444f, 0.0290585123f, 0.0213259906f, 0.0164981969f,
    0.0532580242f, 0.0971791744f, 0.075263299f, 0.0521536656f, 0.0346024372f, 0.0233228635f, 0.0164981969f, 0.0122939274f,
    }};
    // clang-format on
    for (int p = 0; p < 3; ++p)
        for (int i = 0; i < 64; ++i)
            EXPECT_EQ(plane_tables(p).mask_weight[i], expected[p][i]) << "plane " << p << " " << i;
    EXPECT_EQ(plane_tables(0).csf[0], 1.6193873005f);
    EXPECT_EQ(plane_tables(2).csf[63], 0.285345396658f);
}

TEST(PsnrHvsTables, VarianceFactors) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(k63), 0x3f820821u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(k15), 0x3f888889u);
    // §6.3 says K63 differs from f32(64/63); both factors in fact equal the once-rounded
    // quotients, so computing them either way is safe.
    EXPECT_EQ(k63, float(64.0 / 63));
    EXPECT_EQ(k15, float(16.0 / 15));
}

// --- §11.3: one 8x8 picture, every intermediate value -------------------------------------------

int y_reference(int x, int y) { return 60 + 10 * x + 6 * y + 5 * ((x ^ y) & 3); }
int y_distorted(int x, int y) { return y_reference(x, y) + (3 * x + 5 * y) % 5 - 2; }
int cb_reference(int x, int) { return 100 + 3 * x; }
int cb_distorted(int x, int y) { return cb_reference(x, y) + (x == y ? 4 : 0); }
int cr_reference(int x, int y) { return 140 - 2 * y + 20 * (x % 2); }
int cr_distorted(int x, int y) { return 8 * (cr_reference(x, y) / 8) + 4; }

using SampleFunction = std::function<int(int, int)>;

// A block's samples, sample(x = column, y = row).
void fill(const SampleFunction& sample, scalar::BlockSamples& block) {
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) block[r * 8 + c] = sample(c, r);
}

Matrix dct_of(const SampleFunction& sample) {
    scalar::BlockSamples block;
    fill(sample, block);
    scalar::fdct8x8(block);
    Matrix result;
    for (int i = 0; i < 64; ++i) result[i] = block[i];
    return result;
}

scalar::MaskSteps mask_of(const SampleFunction& sample, int plane) {
    scalar::BlockSamples samples, coefficients;
    fill(sample, samples);
    fill(sample, coefficients);
    scalar::fdct8x8(coefficients);
    return scalar::mask_steps(samples, coefficients, plane_tables(plane));
}

std::array<float, 64> terms_of(const SampleFunction& reference, const SampleFunction& distorted,
                               int plane) {
    scalar::BlockSamples r, d;
    fill(reference, r);
    fill(distorted, d);
    std::array<float, 64> terms;
    scalar::block_terms(r, d, plane_tables(plane), terms.data());
    return terms;
}

float accumulated(const std::array<float, 64>& terms) {
    float sum = 0;
    for (const float term : terms) sum += term;
    return sum;
}

TEST(PsnrHvsExample, LumaDct) {
    // clang-format off
    const Matrix reference = {
         985, -182, 0, -20, -1,  -5,  0,  -2,
        -112,   -6, 0, -13, -1,   7,  0,  -4,
          -3,    0, 0,   0,  0,   0,  0,   0,
         -10,  -13, 0, -24,  0,  15,  0,  -2,
          -3,    1, 0,   0,  0,  -1, -1,  -1,
          -1,    7, 1,  14,  1, -12,  0,  -5,
           0,    0, 0,   0,  0,   0,  0,   0,
           0,   -4, 0,  -2, -1,  -7,  0, -17};
    const Matrix distorted = {
         983, -182, -4, -24,  0,  -2, -9,  -4,
        -112,   -6,  0, -13, -1,   7,  0,  -4,
          -3,    0,  0,   0,  0,   0,  0,   0,
         -10,  -13,  0, -24,  0,  15,  0,  -2,
          -2,    1,  1,   0,  1,   0,  0,   0,
          -1,    7,  1,  14,  1, -12,  0,  -5,
           0,    0,  0,   0,  0,   0,  0,   0,
           0,   -4,  0,  -2, -1,  -7,  0, -17};
    // clang-format on
    EXPECT_EQ(dct_of(y_reference), reference);
    EXPECT_EQ(dct_of(y_distorted), distorted);
}

TEST(PsnrHvsExample, LumaMasks) {
    const auto r = mask_of(y_reference, 0);
    EXPECT_EQ(r.sum, 7904.0f);
    EXPECT_EQ(r.mean, 123.5f);
    EXPECT_EQ(r.quadrant_sum[0], 1464.0f);
    EXPECT_EQ(r.quadrant_sum[1], 1848.0f);
    EXPECT_EQ(r.quadrant_sum[2], 2104.0f);
    EXPECT_EQ(r.quadrant_sum[3], 2488.0f);
    EXPECT_EQ(r.quadrant_mean[0], 91.5f);
    EXPECT_EQ(r.quadrant_mean[1], 115.5f);
    EXPECT_EQ(r.quadrant_mean[2], 131.5f);
    EXPECT_EQ(r.quadrant_mean[3], 155.5f);
    EXPECT_EQ(r.g2_raw, 47696.0f);
    for (int q = 0; q < 4; ++q) EXPECT_EQ(r.q2_raw[q], 3220.0f) << q;
    EXPECT_EQ(r.g2, 48453.082f);
    for (int q = 0; q < 4; ++q) EXPECT_EQ(r.q2[q], 3434.66675f) << q;
    EXPECT_EQ(r.ratio, 0.283545792f);
    EXPECT_EQ(r.energy, 36588.6406f);
    EXPECT_EQ(r.energy_ratio, 10374.5547f);
    EXPECT_EQ(r.root, 101.85556f);
    EXPECT_EQ(r.mask, 3.18298626f);

    const auto d = mask_of(y_distorted, 0);
    EXPECT_EQ(d.sum, 7888.0f);
    EXPECT_EQ(d.mean, 123.25f);
    EXPECT_EQ(d.quadrant_sum[0], 1464.0f);
    EXPECT_EQ(d.quadrant_sum[1], 1848.0f);
    EXPECT_EQ(d.quadrant_sum[2], 2096.0f);
    EXPECT_EQ(d.quadrant_sum[3], 2480.0f);
    EXPECT_EQ(d.quadrant_mean[2], 131.0f);
    EXPECT_EQ(d.quadrant_mean[3], 155.0f);
    EXPECT_EQ(d.g2_raw, 47980.0f);
    EXPECT_EQ(d.q2_raw[0], 3660.0f);
    EXPECT_EQ(d.q2_raw[1], 3660.0f);
    EXPECT_EQ(d.q2_raw[2], 3240.0f);
    EXPECT_EQ(d.q2_raw[3], 3240.0f);
    EXPECT_EQ(d.g2, 48741.5898f);
    EXPECT_EQ(d.q2[0], 3904.00024f);
    EXPECT_EQ(d.q2[1], 3904.00024f);
    EXPECT_EQ(d.q2[2], 3456.00024f);
    EXPECT_EQ(d.q2[3], 3456.00024f);
    EXPECT_EQ(d.ratio, 0.30200085f);
    EXPECT_EQ(d.energy, 36658.2344f);
    EXPECT_EQ(d.energy_ratio, 11070.8184f);
    EXPECT_EQ(d.root, 105.217957f);
    EXPECT_EQ(d.mask, 3.28806114f);
}

TEST(PsnrHvsExample, LumaTermsLeaveOnlyTheDc) {
    // Every AC difference falls below its threshold m ⊘ W (e.g. (0,6): 9 vs 100.184387).
    const float mask = 3.28806114f;
    EXPECT_EQ(mask / plane_tables(0).mask_weight[2], 5.00885248f);
    EXPECT_EQ(mask / plane_tables(0).mask_weight[6], 100.184387f);
    EXPECT_EQ(mask / plane_tables(0).mask_weight[4 * 8 + 7], 422.790741f);
    const auto terms = terms_of(y_reference, y_distorted, 0);
    EXPECT_EQ(terms[0], 10.4896603f);
    for (int i = 1; i < 64; ++i) EXPECT_EQ(terms[i], 0.0f) << i;
    EXPECT_EQ(accumulated(terms), 10.4896603f);
}

TEST(PsnrHvsExample, ChromaMasksAndTerms) {
    const auto cb_r = mask_of(cb_reference, 1), cb_d = mask_of(cb_distorted, 1);
    EXPECT_EQ(cb_r.sum, 7072.0f);
    EXPECT_EQ(cb_r.g2_raw, 3024.0f);
    for (int q = 0; q < 4; ++q) EXPECT_EQ(cb_r.q2_raw[q], 180.0f) << q;
    EXPECT_EQ(cb_r.ratio, 0.25f);
    EXPECT_EQ(cb_r.energy, 2872.74146f);
    EXPECT_EQ(cb_r.mask, 0.837468147f);
    EXPECT_EQ(cb_d.sum, 7104.0f);
    EXPECT_EQ(cb_d.g2_raw, 3136.0f);
    EXPECT_EQ(cb_d.q2_raw[0], 228.0f);
    EXPECT_EQ(cb_d.q2_raw[1], 180.0f);
    EXPECT_EQ(cb_d.q2_raw[2], 180.0f);
    EXPECT_EQ(cb_d.q2_raw[3], 228.0f);
    EXPECT_EQ(cb_d.ratio, 0.273214281f);
    EXPECT_EQ(cb_d.energy, 2788.7207f);
    EXPECT_EQ(cb_d.mask, 0.862589657f);
    const Matrix cb_dct = dct_of(cb_reference), cb_dist_dct = dct_of(cb_distorted);
    EXPECT_EQ((std::array<int, 8>{cb_dct[0], cb_dct[1], cb_dct[2], cb_dct[3], cb_dct[4], cb_dct[5],
                                  cb_dct[6], cb_dct[7]}),
              (std::array<int, 8>{883, -56, -1, -5, -1, -1, 0, 1}));
    EXPECT_EQ(
        (std::array<int, 8>{cb_dist_dct[8], cb_dist_dct[9], cb_dist_dct[10], cb_dist_dct[11],
                            cb_dist_dct[12], cb_dist_dct[13], cb_dist_dct[14], cb_dist_dct[15]}),
        (std::array<int, 8>{0, 4, 0, 1, 0, -1, 0, 0}));
    const auto cb = terms_of(cb_reference, cb_distorted, 1);
    EXPECT_EQ(cb[0], 91.3105545f);
    EXPECT_EQ(cb[1], 0.0193576701f);
    EXPECT_EQ(cb[9], 7.49388266f);
    for (int i = 0; i < 64; ++i)
        if (i != 0 && i != 1 && i != 9) {
            EXPECT_EQ(cb[i], 0.0f) << i;
        }
    EXPECT_EQ(accumulated(cb), 98.8237915f);  // the float running sum, not 98.8237948

    const auto cr_r = mask_of(cr_reference, 2), cr_d = mask_of(cr_distorted, 2);
    EXPECT_EQ(cr_r.ratio, 0.911157072f);
    EXPECT_EQ(cr_r.energy, 2066.37012f);
    EXPECT_EQ(cr_r.mask, 1.35597193f);
    EXPECT_EQ(cr_d.ratio, 0.918749988f);
    EXPECT_EQ(cr_d.energy, 2314.99585f);
    EXPECT_EQ(cr_d.mask, 1.44119847f);
    const auto cr = terms_of(cr_reference, cr_distorted, 2);
    EXPECT_EQ(cr[0], 336.666656f);
    EXPECT_EQ(cr[8], 17.9684486f);
    for (int i = 0; i < 64; ++i)
        if (i != 0 && i != 8) {
            EXPECT_EQ(cr[i], 0.0f) << i;
        }
    EXPECT_EQ(accumulated(cr), 354.635101f);
}

// --- Whole pictures through a session ------------------------------------------------------

using PlaneFunctions = std::array<SampleFunction, 3>;

Picture picture_of(const VideoFormat& format, const PlaneFunctions& planes) {
    return test::make_picture(format, [&](int p, int y, int x) { return planes[p](x, y); });
}

std::array<double, 4> score(const VideoFormat& format, const PlaneFunctions& reference,
                            const PlaneFunctions& distorted) {
    Session session({.threads = 1});
    session.add_feature("psnr_hvs");
    session.start(format);
    session.push({picture_of(format, reference), picture_of(format, distorted)});
    const ScoreTable table = session.finish();
    EXPECT_EQ(table.column_count(), 4u);
    std::array<double, 4> values;
    const char* const names[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
    for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(table.name(k), names[k]);
        values[k] = table.value(k, 0).value_or(NAN);
    }
    return values;
}

const VideoFormat example_format{8, 8, 8, ChromaFormat::yuv444};

TEST(PsnrHvsExample, EightByEightPicture) {
    const auto values = score(example_format, {y_reference, cb_reference, cr_reference},
                              {y_distorted, cb_distorted, cr_distorted});
    EXPECT_EQ(values[0], 55.98498929344867);
    EXPECT_EQ(values[1], 46.243988096841434);
    EXPECT_EQ(values[2], 40.694786275283946);
    EXPECT_EQ(values[3], 48.889819353489187);
}

// §11.4: differences that the mask hides entirely score +inf, as in the reference (whose JSON
// prints null and whose other writers print inf).
TEST(PsnrHvsExample, MaskedDifferenceIsInfinite) {
    const auto moved = [](int x, int y) {
        return y_reference(x, y) + (y == 1 && x == 7 ? -2 : 0) + (y == 2 && x == 3 ? 1 : 0);
    };
    const auto values = score(example_format, {y_reference, cb_reference, cb_reference},
                              {moved, cb_reference, cb_reference});
    for (const double value : values) EXPECT_EQ(value, std::numeric_limits<double>::infinity());
}

TEST(PsnrHvsExample, SumPreservingChangeMovesTheDc) {
    const auto moved = [](int x, int y) {
        return y_reference(x, y) + (y == 0 && x == 0 ? 3 : 0) + (y == 7 && x == 7 ? -3 : 0);
    };
    const auto values = score(example_format, {y_reference, cb_reference, cb_reference},
                              {moved, cb_reference, cb_reference});
    EXPECT_EQ(values[0], 62.005589206728295);
    EXPECT_EQ(values[1], std::numeric_limits<double>::infinity());
    EXPECT_EQ(values[2], std::numeric_limits<double>::infinity());
    EXPECT_EQ(values[3], 62.974689336808858);
}

// --- §4 and §11.5: geometry ----------------------------------------------------------------

TEST(PsnrHvsGeometry, BlockCounts) {
    const std::pair<int, int> counts[] = {
        {576, 82},   {324, 46},   {288, 41},  {162, 23}, {1920, 274}, {1080, 154}, {3840, 548},
        {2160, 308}, {1280, 182}, {720, 102}, {641, 91}, {359, 51},   {320, 45},   {179, 25},
        {1919, 274}, {1081, 154}, {8, 1},     {15, 2},   {14, 1},     {7, 0}};
    for (const auto& [size, blocks] : counts) EXPECT_EQ(block_count(size), blocks) << size;
}

TEST(PsnrHvsGeometry, FloorSizedChroma) {
    const VideoFormat odd{641, 359, 8, ChromaFormat::yuv420};
    EXPECT_EQ(scored_width(odd, 1), 320);
    EXPECT_EQ(scored_height(odd, 2), 179);
    const VideoFormat odd422{641, 359, 8, ChromaFormat::yuv422};
    EXPECT_EQ(scored_width(odd422, 1), 320);
    EXPECT_EQ(scored_height(odd422, 1), 359);
    const VideoFormat odd444{641, 359, 8, ChromaFormat::yuv444};
    EXPECT_EQ(scored_width(odd444, 2), 641);
    const VideoFormat sixteen{16, 16, 8, ChromaFormat::yuv420};
    EXPECT_EQ(block_count(scored_width(sixteen, 0)) * block_count(scored_height(sixteen, 0)), 4);
    EXPECT_EQ(block_count(scored_width(sixteen, 1)) * block_count(scored_height(sixteen, 1)), 1);
}

// §11.5's 12x12 picture: the reference scores its one luma block (its 6x6 4:2:0 chroma has none,
// which vq refuses; 4:4:4 keeps the same luma).
TEST(PsnrHvsGeometry, TwelveByTwelveLuma) {
    const SampleFunction reference = [](int x, int y) { return (7 * x + 13 * y) % 256; };
    const SampleFunction distorted = [&](int x, int y) { return (reference(x, y) + 3) % 256; };
    const auto values = score({12, 12, 8, ChromaFormat::yuv444}, {reference, reference, reference},
                              {distorted, distorted, distorted});
    EXPECT_EQ(values[0], 34.771032482673569);
}

}  // namespace
}  // namespace vq::psnr_hvs
