// The worked examples of spec/ssim.md §13 (every final value confirmed there with the reference
// CLI), stage by stage and through a Session, and the constants and tables of §4, §7, §8.1, §10.1.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "metrics/ssim/ssim.hpp"
#include "ssim_test_support.hpp"

namespace vq::test {
namespace {

using ssim::FloatPlane;

Picture example_a(bool distorted, int bit_depth = 8) {
    return luma_picture(24, 24, bit_depth, [&](int x, int y) {
        if (bit_depth == 8) return distorted ? example_a_dist(x, y) : example_a_ref(x, y);
        return distorted ? 4 * example_a_dist(x, y) + (x + 2 * y) % 4
                         : 4 * example_a_ref(x, y) + (x + y) % 4;
    });
}

TEST(SsimExample, Constants) {  // §4
    EXPECT_EQ(ssim::k1l, 0x1.466666p+1f);
    EXPECT_EQ(ssim::k2l, 0x1.e99998p+2f);
    EXPECT_EQ(ssim::c1, 0x1.a028f4p+2f);
    EXPECT_EQ(ssim::c2, 0x1.d42e12p+5f);
    EXPECT_EQ(ssim::c3, 0x1.d42e12p+4f);
    EXPECT_EQ(double(ssim::contrast_exponents[0]), 0.04479999840259552);
    EXPECT_EQ(double(ssim::contrast_exponents[1]), 0.28560000658035278);
    EXPECT_EQ(double(ssim::contrast_exponents[2]), 0.30009999871253967);
    EXPECT_EQ(double(ssim::contrast_exponents[3]), 0.23630000650882721);
    EXPECT_EQ(double(ssim::luminance_exponents[4]), 0.13330000638961792);
    EXPECT_EQ(ssim::box_kernel(3).front(), 0x1.c71c72p-4f);  // §7.3
    EXPECT_EQ(ssim::box_kernel(5).front(), 0x1.47ae14p-5f);
    EXPECT_EQ(ssim::box_kernel(4).size(), 16u);
}

TEST(SsimExample, AutomaticFactorTable) {  // §8.1
    const std::pair<int, int> table[] = {{288, 1},  {324, 1},  {359, 1}, {383, 1},  {384, 2},
                                         {639, 2},  {640, 3},  {720, 3}, {1080, 4}, {1081, 4},
                                         {1151, 4}, {1152, 5}, {2160, 8}};
    for (const auto& [side, factor] : table) {
        EXPECT_EQ(ssim::automatic_factor(side, 4000), factor) << side;
        EXPECT_EQ(ssim::automatic_factor(4000, side), factor) << side;
    }
}

TEST(SsimExample, DecimatedSizeFollowsTheParityOfTheInput) {  // §7.1
    EXPECT_EQ(ssim::decimated_size(10, 3), 3);
    EXPECT_EQ(ssim::decimated_size(11, 3), 4);
    EXPECT_EQ(ssim::decimated_size(1082, 4), 270);
    EXPECT_EQ(ssim::decimated_size(1081, 4), 271);
    EXPECT_EQ(ssim::decimated_size(1080, 2), 540);
    EXPECT_EQ(ssim::decimated_size(135, 2), 68);
}

TEST(SsimExample, MaxDbTable) {  // §10.1: NaN maps to the cap
    struct Case {
        int width, height, bit_depth;
        double max_db;
    };
    const Case cases[] = {{576, 324, 8, 104},   {576, 324, 10, 116},   {352, 288, 8, 102},
                          {641, 359, 8, 105},   {1280, 720, 8, 111},   {1920, 1080, 8, 115},
                          {3840, 2160, 8, 121}, {3840, 2160, 10, 133}, {1919, 1081, 10, 127},
                          {176, 176, 8, 97},    {1920, 1080, 12, 139}, {1920, 1080, 16, 163},
                          {24, 24, 8, 79},      {24, 24, 10, 91}};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Case& c : cases) {
        const ssim::Decibels clipped(true, {c.width, c.height, c.bit_depth, ChromaFormat::yuv420});
        EXPECT_EQ(clipped(nan), c.max_db) << c.width << "x" << c.height << " " << c.bit_depth;
        EXPECT_EQ(clipped(1.0), c.max_db);
    }
    const ssim::Decibels unclipped(false, {24, 24, 8, ChromaFormat::yuv420});
    EXPECT_EQ(unclipped(1.0), std::numeric_limits<double>::infinity());
    EXPECT_EQ(unclipped(nan), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::signbit(unclipped(0.0)));  // -0 dB
}

TEST(SsimExample, A1Stages) {
    const FloatPlane r = float_luma(example_a(false)), d = float_luma(example_a(true));
    EXPECT_EQ(g9(horizontal_pass(r).row(0)[0]), "125.305954");
    int width = 0;
    const auto m = moment_planes(r, d, width);
    ASSERT_EQ(width, 14);
    const Moments& at00 = m[0];
    EXPECT_EQ(g9(at00.mu_r), "123.062485");
    EXPECT_EQ(g9(at00.mu_d), "123.062927");
    EXPECT_EQ(g9(at00.e_rr), "20624.6836");
    EXPECT_EQ(g9(at00.e_dd), "20701.5645");
    EXPECT_EQ(g9(at00.e_rd), "20659.791");
    const ssim::Terms t00 = ssim::terms(at00.mu_r, at00.mu_d, at00.e_rr, at00.e_dd, at00.e_rd);
    EXPECT_EQ(g17(t00.l), "1.0000000126856949");  // > 1: the float denominator rounds down
    EXPECT_EQ(g17(t00.c), "0.99997597608461042");
    EXPECT_EQ(g9(float(t00.s)), "0.999423265");

    const Moments& at75 = m[5 * width + 7];
    EXPECT_EQ(g9(at75.mu_r), "130.297546");
    EXPECT_EQ(g9(at75.mu_d), "130.285675");
    const ssim::Terms t75 = ssim::terms(at75.mu_r, at75.mu_d, at75.e_rr, at75.e_dd, at75.e_rd);
    EXPECT_EQ(g17(t75.l), "0.99999992861776277");
    EXPECT_EQ(g17(t75.c), "0.99992600222168404");
    EXPECT_EQ(g9(float(t75.s)), "0.999454021");
}

TEST(SsimExample, A1Scores) {
    const Picture ref = example_a(false), dist = example_a(true);
    const ScoreTable lcs = score_pair("float_ssim=enable_lcs=true", ref, dist);
    EXPECT_EQ(score_of(lcs, "float_ssim"), 0.99938702583312988);
    EXPECT_EQ(score_of(lcs, "float_ssim_l"), 0.99999994039535522);
    EXPECT_EQ(score_of(lcs, "float_ssim_c"), 0.99997234344482422);
    EXPECT_EQ(score_of(lcs, "float_ssim_s"), 0.99941480159759521);
    EXPECT_EQ(score_of(score_pair("float_ssim=enable_db=true", ref, dist), "float_ssim"),
              32.125578279647257);
}

TEST(SsimExample, A2TenBit) {
    const Picture ref = example_a(false, 10), dist = example_a(true, 10);
    const FloatPlane r = float_luma(ref), d = float_luma(dist);
    EXPECT_EQ(g9(horizontal_pass(r).row(0)[0]), "125.665314");
    int width = 0;
    const Moments at00 = moment_planes(r, d, width)[0];
    EXPECT_EQ(g9(at00.mu_r), "123.438461");
    EXPECT_EQ(g9(at00.mu_d), "123.437912");

    const ScoreTable lcs = score_pair("float_ssim=enable_lcs=true", ref, dist);
    EXPECT_EQ(score_of(lcs, "float_ssim"), 0.99937158823013306);
    EXPECT_EQ(score_of(lcs, "float_ssim_l"), 0.99999994039535522);
    EXPECT_EQ(score_of(lcs, "float_ssim_c"), 0.99996966123580933);
    EXPECT_EQ(score_of(lcs, "float_ssim_s"), 0.99940192699432373);
    EXPECT_EQ(
        score_of(score_pair("float_ssim=enable_db=true:clip_db=true", ref, dist), "float_ssim"),
        32.017556894175556);
}

TEST(SsimExample, A3IdenticalFrames) {
    const Picture ref = example_a(false);
    const FloatPlane r = float_luma(ref);
    int width = 0;
    const Moments at00 = moment_planes(r, r, width)[0];
    const ssim::Terms t = ssim::terms(at00.mu_r, at00.mu_d, at00.e_rr, at00.e_dd, at00.e_rd);
    EXPECT_EQ(g17(t.l), "1.0000000279851422");
    EXPECT_EQ(g17(t.c), "1.0000000031156948");
    EXPECT_EQ(t.s, 1.0);
    EXPECT_EQ(score_of(score_pair("float_ssim", ref, ref), "float_ssim"), 1.0);
    EXPECT_EQ(score_of(score_pair("float_ssim=enable_db=true", ref, ref), "float_ssim"),
              std::numeric_limits<double>::infinity());
    EXPECT_EQ(
        score_of(score_pair("float_ssim=enable_db=true:clip_db=true", ref, ref), "float_ssim"),
        79.0);
}

TEST(SsimExample, A4FlatPlane) {  // the cov' clamp keeps s at 1
    const Picture flat = luma_picture(24, 24, 8, [](int, int) { return 77; });
    const FloatPlane p = float_luma(flat);
    int width = 0;
    const Moments m = moment_planes(p, p, width)[0];
    EXPECT_EQ(g9(m.mu_r), "77.0003128");
    EXPECT_EQ(g9(m.e_rr), "5929.02344");
    EXPECT_EQ(g9(m.e_rd - m.mu_r * m.mu_d), "-0.0249023438");
    const ssim::Terms t = ssim::terms(m.mu_r, m.mu_d, m.e_rr, m.e_dd, m.e_rd);
    EXPECT_EQ(t.s, 1.0);
    EXPECT_EQ(t.c, 1.0);
    EXPECT_EQ(g17(t.l), "0.9999999354715029");
    EXPECT_EQ(score_of(score_pair("float_ssim", flat, flat), "float_ssim"), 0.99999994039535522);
    EXPECT_EQ(score_of(score_pair("float_ssim=enable_db=true", flat, flat), "float_ssim"),
              72.247198959355487);
}

Picture example_b(bool distorted) {
    return luma_picture(176, 176, 8, [&](int x, int y) {
        return distorted ? example_b_dist(x, y) : example_b_ref(x, y);
    });
}

TEST(SsimExample, BPyramid) {  // §13.2: the decimated reference at each scale
    const std::array<std::array<const char*, 4>, 4> expected = {{
        {"65.165947", "71.8566284", "74.0241165", "113.632751"},
        {"67.1507645", "87.8581924", "108.426689", "119.988243"},
        {"71.8714981", "125.81134", "127.051682", "123.874107"},
        {"85.2156448", "132.838089", "127.827736", "125.744034"},
    }};
    const int sizes[] = {88, 44, 22, 11};
    FloatPlane plane = float_luma(example_b(false));
    ssim::Scratch scratch;
    for (int k = 0; k < 4; ++k) {
        FloatPlane next;
        ssim::decimate(plane.view(), 1.0f, 2, ssim::lpf, ssim::lpf_taps, baseline_kernels(),
                       scratch, next);
        plane = next;
        ASSERT_EQ(plane.width, sizes[k]);
        ASSERT_EQ(plane.height, sizes[k]);
        const int last = sizes[k] - 1;
        EXPECT_EQ(g9(plane.row(0)[0]), expected[k][0]) << "scale " << k + 1;
        EXPECT_EQ(g9(plane.row(0)[1]), expected[k][1]) << "scale " << k + 1;
        EXPECT_EQ(g9(plane.row(1)[0]), expected[k][2]) << "scale " << k + 1;
        EXPECT_EQ(g9(plane.row(last)[last]), expected[k][3]) << "scale " << k + 1;
    }
}

TEST(SsimExample, BScores) {
    const Picture ref = example_b(false), dist = example_b(true);
    const ScoreTable lcs = score_pair("float_ms_ssim=enable_lcs=true", ref, dist);
    const std::array<std::array<const char*, 3>, 5> terms = {{
        {"0.999840796", "0.99992162", "0.997855484"},
        {"0.999952435", "0.999687731", "0.988585055"},
        {"0.999999106", "0.998680949", "0.970006824"},
        {"1", "0.998658001", "0.981079102"},
        {"1", "0.999962211", "0.999560177"},
    }};
    for (int k = 0; k < 5; ++k)
        for (int i = 0; i < 3; ++i) {
            const std::string name =
                fmt::format("float_ms_ssim_{}_scale{}", std::string(1, "lcs"[i]), k);
            EXPECT_EQ(g9(float(score_of(lcs, name))), terms[k][i]) << name;
        }
    EXPECT_EQ(score_of(lcs, "float_ms_ssim_s_scale3"), 0.9810791015625);
    EXPECT_EQ(score_of(lcs, "float_ms_ssim"), 0.9822618033902355);
    EXPECT_EQ(score_of(score_pair("float_ms_ssim=enable_db=true:clip_db=true", ref, dist),
                       "float_ms_ssim"),
              17.510905357015638);
}

TEST(SsimExample, CFactors) {  // §13.3
    const Picture ref = luma_picture(401, 391, 8, example_c_ref);
    const Picture dist = luma_picture(401, 391, 8, example_c_dist);
    struct Case {
        const char* request;
        int factor, width, height;
        std::array<const char*, 4> samples;  // ref' (0,0), (1,0), (last,0), (last,last)
        double ssim, l, c, s;
    };
    const Case cases[] = {
        {"float_ssim=enable_lcs=true:scale=1",
         1,
         401,
         391,
         {},
         0.99588292837142944,
         0.99999988079071045,
         0.999958336353302,
         0.99592447280883789},
        {"float_ssim=enable_lcs=true:scale=2",
         2,
         201,
         196,
         {"0", "10.5", "236.5", "133.5"},
         0.99962383508682251,
         1,
         0.9999997615814209,
         0.99962407350540161},
        {"float_ssim=enable_lcs=true",
         2,
         201,
         196,
         {"0", "10.5", "236.5", "133.5"},
         0.99962383508682251,
         1,
         0.9999997615814209,
         0.99962407350540161},
        {"float_ssim=enable_lcs=true:scale=3",
         3,
         134,
         131,
         {"3.44444442", "23", "236.666672", "130.222229"},
         0.99996554851531982,
         1,
         1,
         0.9999656081199646},
        {"float_ssim=enable_lcs=true:scale=4",
         4,
         101,
         98,
         {"5.25", "27.75", "240.375", "126.625"},
         0.99999850988388062,
         1,
         0.99999994039535522,
         0.99999850988388062},
    };
    const FloatPlane r = float_luma(ref);
    for (const Case& c : cases) {
        SCOPED_TRACE(c.request);
        if (c.factor > 1) {
            ssim::Scratch scratch;
            FloatPlane out;
            ssim::decimate(r.view(), 1.0f, c.factor, ssim::box_kernel(c.factor), c.factor,
                           baseline_kernels(), scratch, out);
            ASSERT_EQ(out.width, c.width);
            ASSERT_EQ(out.height, c.height);
            EXPECT_EQ(g9(out.row(0)[0]), c.samples[0]);
            EXPECT_EQ(g9(out.row(0)[1]), c.samples[1]);
            EXPECT_EQ(g9(out.row(0)[c.width - 1]), c.samples[2]);
            EXPECT_EQ(g9(out.row(c.height - 1)[c.width - 1]), c.samples[3]);
        }
        const ScoreTable table = score_pair(c.request, ref, dist);
        EXPECT_EQ(score_of(table, "float_ssim"), c.ssim);
        EXPECT_EQ(score_of(table, "float_ssim_l"), c.l);
        EXPECT_EQ(score_of(table, "float_ssim_c"), c.c);
        EXPECT_EQ(score_of(table, "float_ssim_s"), c.s);
    }
}

}  // namespace
}  // namespace vq::test
