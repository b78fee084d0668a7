// ADM configuration: options and names (spec §1, §2), the size limit, the CSF factors and
// multipliers (§7), the regions and shifts (§8.1, §9, §10), the div table (§13.2), and the
// per-stage values of the worked example (§15.2-§15.3) through the baseline row kernels.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "adm_test_support.hpp"
#include "metrics/adm/adm_div_table.hpp"
#include "metrics/adm/adm_cpu_kernels.hpp"
#include "vq/error.hpp"

namespace vq::test {
namespace {

const adm::Kernels& baseline() { return adm::available_kernels().back(); }

TEST(AdmConfig, OutputNamesOrderAndSuffixes) {
    const VideoFormat format{64, 64, 8, ChromaFormat::yuv420};
    const std::vector<std::string> plain = {
        "integer_adm2",       "integer_aim",        "integer_adm3",      "integer_adm_scale0",
        "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"};
    EXPECT_EQ(adm_scorer(format).outputs(), plain);
    EXPECT_EQ(adm_scorer(format, {{"adm_enhn_gain_limit", "1.0"}}).outputs()[0],
              "integer_adm2_egl_1");
    EXPECT_EQ(adm_scorer(format, {{"adm_norm_view_dist", "5"}, {"adm_csf_mode", "2"}}).outputs()[6],
              "integer_adm_scale3_csf_2_nvd_5");
    EXPECT_EQ(adm_scorer(format, {{"adm_skip_aim", "true"}, {"debug", "false"}}).outputs()[1],
              "integer_aim");
    const auto debug = adm_scorer(format, {{"debug", "true"}}).outputs();
    ASSERT_EQ(debug.size(), 18u);
    EXPECT_EQ(debug[7], "integer_adm");
    EXPECT_EQ(debug[8], "integer_adm_num");
    EXPECT_EQ(debug[9], "integer_adm_den");
    EXPECT_EQ(debug[10], "integer_adm_num_scale0");
    EXPECT_EQ(debug[17], "integer_adm_den_scale3");
}

TEST(AdmConfig, DebugOutputs) {
    const auto [ref, dis] = example_blurred(64, 64, 8);
    const auto scores = adm_scores(ref, dis, {{"debug", "true"}});
    ASSERT_EQ(scores.size(), 18u);
    EXPECT_EQ(scores[7], scores[0]);
    EXPECT_EQ(scores[8], 100.0626049041748);
    EXPECT_EQ(scores[9], 132.43609809875488);
    EXPECT_EQ(scores[10], double(0x1.91d048p+4f));
    EXPECT_EQ(scores[11], double(0x1.4a28cp+5f));
}

TEST(AdmConfig, BadOptionValuesNameTheOption) {
    const FeatureDefinition definition = adm::definition();
    const std::pair<const char*, const char*> bad[] = {{"adm_enhn_gain_limit", "0.5"},
                                                       {"adm_norm_view_dist", "30"},
                                                       {"adm_ref_display_height", "5000"},
                                                       {"adm_csf_mode", "4"},
                                                       {"adm_noise_weight", "-1"},
                                                       {"adm_dlm_weight", "2"},
                                                       {"adm_min_val", "x"},
                                                       {"adm_skip_scale0", "maybe"}};
    for (const auto& [key, value] : bad) {
        try {
            bind_options("adm", definition.options, {{key, value}});
            ADD_FAILURE() << key << "=" << value << " accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage);
            EXPECT_NE(std::string(error.what()).find(key), std::string::npos) << error.what();
        }
    }
}

TEST(AdmConfig, TooSmallFramesAndViewingConditionAreUsageErrors) {
    for (const VideoFormat format : {VideoFormat{32, 64, 8, ChromaFormat::yuv420},
                                     VideoFormat{64, 32, 10, ChromaFormat::yuv420}}) {
        try {
            adm_scorer(format);
            ADD_FAILURE() << "accepted " << describe(format);
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage);
            EXPECT_NE(std::string(error.what()).find("33"), std::string::npos) << error.what();
        }
    }
    EXPECT_NO_THROW(adm_scorer({33, 33, 8, ChromaFormat::yuv420}));
    EXPECT_THROW(adm_scorer({64, 64, 8, ChromaFormat::yuv420}, {{"adm_norm_view_dist", "1"}}),
                 Error);
    EXPECT_NO_THROW(
        adm_scorer({64, 64, 8, ChromaFormat::yuv420},
                   {{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}));
}

TEST(AdmConfig, WatsonFactors) {                                                      // §7.1
    EXPECT_EQ(float(std::pow(std::cos(std::numbers::pi / 180), 2)), 0x1.ffd814p-1f);  // §6.1's C
    const adm::CsfFactors defaults = adm::csf_factors({});
    const float hv[4] = {0x1.1cc774p-6f, 0x1.06050cp-5f, 0x1.634f1p-5f, 0x1.762816p-5f};
    const float d[4] = {0x1.820d54p-8f, 0x1.d48d46p-7f, 0x1.8fb80cp-6f, 0x1.008392p-5f};
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(defaults.hv[s], hv[s]) << s;
        EXPECT_EQ(defaults.d[s], d[s]) << s;
    }
    const adm::CsfMultipliers m = adm::csf_multipliers(defaults, {});
    EXPECT_EQ(m.band[0], (std::array<std::uint32_t, 3>{36453, 36453, 49417}));  // hard-coded (§7.4)
    EXPECT_EQ(m.band[1], (std::array<std::uint32_t, 3>{137373792, 137373792, 61414028}));
    EXPECT_EQ(m.band[2], (std::array<std::uint32_t, 3>{186284160, 186284160, 104783920}));
    EXPECT_EQ(m.band[3], (std::array<std::uint32_t, 3>{196165808, 196165808, 134487184}));

    const adm::CsfCondition far{0, 5.0, 1080};
    const adm::CsfFactors f5 = adm::csf_factors(far);
    EXPECT_EQ(f5.hv[0], 0x1.c0364ep-8f);
    EXPECT_EQ(f5.d[0], 0x1.0ad7fep-9f);
    EXPECT_EQ(f5.hv[3], 0x1.c49c48p-6f);
    EXPECT_EQ(f5.d[3], 0x1.108d0ep-6f);
    const adm::CsfMultipliers m5 = adm::csf_multipliers(f5, far);
    EXPECT_EQ(m5.band[0], (std::array<std::uint32_t, 3>{14342, 14342, 17077}));
    EXPECT_EQ(m5.band[1], (std::array<std::uint32_t, 3>{62382256, 62382256, 24495736}));
    EXPECT_EQ(m5.band[2], (std::array<std::uint32_t, 3>{97628224, 97628224, 48234700}));
    EXPECT_EQ(m5.band[3], (std::array<std::uint32_t, 3>{118649120, 118649120, 71447608}));

    const adm::CsfCondition tall{0, 3.0, 2160};
    const adm::CsfFactors f4k = adm::csf_factors(tall);
    EXPECT_EQ(f4k.hv[1], 0x1.5e020ep-7f);
    EXPECT_EQ(f4k.d[2], 0x1.0ff286p-7f);
    const adm::CsfMultipliers m4k = adm::csf_multipliers(f4k, tall);
    EXPECT_EQ(m4k.band[0], (std::array<std::uint32_t, 3>{10021, 10021, 11393}));
    EXPECT_EQ(m4k.band[1], (std::array<std::uint32_t, 3>{45876252, 45876252, 17199296}));
    EXPECT_EQ(m4k.band[2], (std::array<std::uint32_t, 3>{75564400, 75564400, 35644684}));
    EXPECT_EQ(m4k.band[3], (std::array<std::uint32_t, 3>{96654312, 96654312, 55569672}));

    // nvd 1.5 at 2160 lines is the default condition: same factors and hard-coded multipliers.
    const adm::CsfCondition half{0, 1.5, 2160};
    EXPECT_EQ(adm::csf_multipliers(adm::csf_factors(half), half).band[0][2], 49417u);
}

TEST(AdmConfig, BartenAndBlendFactors) {  // §7.2, §7.3
    const float barten[4] = {0x1.35e31ap+0f, 0x1.42b3c6p+2f, 0x1.d410eap+3f, 0x1.af9d36p+4f};
    for (int s = 0; s < 4; ++s) EXPECT_EQ(adm::barten_factor(3.0, 1080, s, 1.0), barten[s]) << s;
    const adm::CsfFactors legacy = adm::csf_factors({2, 5.0, 720});
    EXPECT_EQ(legacy.hv[2], 0.040309f);
    EXPECT_EQ(legacy.d[3], 0.034641f);
    const adm::CsfFactors mae = adm::csf_factors({3, 3.0, 480});
    EXPECT_EQ(mae.hv[0], 0.024969f);
    EXPECT_EQ(mae.d[1], 0.023424f);
    EXPECT_EQ(adm::csf_factors({2, 1.5, 2160}).hv[0], 0.01183f);  // filed under (1080, 3)
    EXPECT_EQ(adm::csf_factors({3, 4.0, 1080}).d[2], -22.0f);     // no table: -EINVAL as a factor
}

TEST(AdmConfig, Regions) {  // §8.1 examples
    struct Row {
        int w, h, s, band_w, band_h, top, left, area, work_row0, work_row1, work_col0, work_col1;
    };
    const Row rows[] = {
        {64, 64, 0, 32, 32, 2, 2, 784, 1, 32, 1, 32},
        {64, 64, 1, 16, 16, 1, 1, 196, 0, 16, 0, 16},
        {64, 64, 2, 8, 8, 0, 0, 64, 0, 8, 0, 8},
        {89, 45, 0, 45, 23, 1, 4, 777, 0, 23, 3, 44},
        {89, 45, 1, 23, 12, 0, 1, 252, 0, 12, 0, 23},
        {89, 45, 3, 6, 3, 0, 0, 18, 0, 3, 0, 6},
        {1920, 1080, 0, 960, 540, 53, 95, 334180, 52, 490, 94, 868},
        {1920, 1080, 1, 480, 270, 26, 47, 84148, 25, 247, 46, 436},
        {1920, 1080, 3, 120, 68, 6, 11, 5488, 5, 65, 10, 112},
    };
    for (const Row& r : rows) {
        const adm::ScaleGeometry g = adm::make_geometry(r.w, r.h)[r.s];
        EXPECT_EQ(g.width, r.band_w);
        EXPECT_EQ(g.height, r.band_h);
        EXPECT_EQ(g.top, r.top);
        EXPECT_EQ(g.left, r.left);
        EXPECT_EQ(g.area, r.area);
        EXPECT_EQ(g.work_row_begin, r.work_row0) << r.w << " " << r.s;
        EXPECT_EQ(g.work_row_end, r.work_row1) << r.w << " " << r.s;
        EXPECT_EQ(g.work_col_begin, r.work_col0) << r.w << " " << r.s;
        EXPECT_EQ(g.work_col_end, r.work_col1) << r.w << " " << r.s;
    }
    EXPECT_EQ(adm::make_geometry(1919, 1079)[3].width, 120);
    EXPECT_EQ(adm::make_geometry(1919, 1079)[3].height, 68);
    EXPECT_EQ(adm::make_geometry(3840, 2160)[0].den_row_shift, 1);  // Sa = 1 at 4K
    EXPECT_EQ(adm::make_geometry(1920, 1080)[0].den_row_shift, 0);
    EXPECT_EQ(adm::clog2(1), 0);
    EXPECT_EQ(adm::clog2(32), 5);
    EXPECT_EQ(adm::clog2(33), 6);
}

TEST(AdmConfig, DivTable) {  // §13.2
    EXPECT_EQ(adm::div_table[32769], 1073741824);
    EXPECT_EQ(adm::div_table[32771], 357913941);
    EXPECT_EQ(adm::div_table[32768 + 255], 4210752);
    EXPECT_EQ(adm::div_table[65536], 32768);
    EXPECT_EQ(adm::div_table[32768 - 7], -153391689);
    EXPECT_EQ(adm::div_table[0], -32768);
    EXPECT_EQ(adm::div_table[32768], 0);
}

// §15.2: case A's scale-0 vertical and horizontal passes, decoupling, CSF and masking terms.
TEST(AdmConfig, CaseAScale0Stages) {
    const auto [ref, dis] = example_blurred(64, 64, 8);
    const adm::Kernels& k = baseline();
    auto vertical = [&](const Picture& picture, int i, std::vector<std::int16_t>& lo,
                        std::vector<std::int16_t>& hi) {
        const auto plane = picture.plane<std::uint8_t>(0);
        const std::uint8_t* rows[4];
        for (int t = 0; t < 4; ++t) {
            const int r = 2 * i - 1 + t;
            rows[t] = plane.row(r < 0 ? -r : (r >= 64 ? 127 - r : r));
        }
        lo.assign(70, 0);
        hi.assign(70, 0);
        k.dwt0_vertical_8(rows, 64, 8, lo.data() + 2, hi.data() + 2);
        for (auto* row : {&lo, &hi}) {
            std::int16_t* p = row->data() + 2;
            p[-1] = p[1];
            p[64] = p[63];
        }
    };
    std::vector<std::int16_t> lo, hi;
    vertical(ref, 0, lo, hi);
    EXPECT_EQ((std::vector<int>{lo[2], lo[3], lo[4], lo[5]}),
              (std::vector<int>{-22721, -21462, -19842, -17860}));
    EXPECT_EQ((std::vector<int>{hi[2], hi[3], hi[4], hi[5]}),
              (std::vector<int>{-545, -645, -744, -844}));
    std::int16_t a[32], v[32], h[32], d[32];
    k.dwt0_horizontal(lo.data() + 2, hi.data() + 2, 32, a, v, h, d);
    EXPECT_EQ((std::vector<int>{a[0], v[0], h[0], d[0]}),
              (std::vector<int>{-15808, -250, -408, 13}));
    EXPECT_EQ((std::vector<int>{a[1], v[1], h[1], d[1]}),
              (std::vector<int>{-14480, -111, -501, 0}));
    vertical(dis, 16, lo, hi);
    k.dwt0_horizontal(lo.data() + 2, hi.data() + 2, 32, a, v, h, d);
    EXPECT_EQ((std::vector<int>{a[16], v[16], h[16], d[16]}),
              (std::vector<int>{-4723, 1730, 3185, -610}));

    // Decoupling, order h, v, d; the last case passes the angle test (case D at (29,28)).
    struct Decoupled {
        std::int16_t o[3], t[3], r[3], a[3];
        double gain;
    };
    const Decoupled cases[] = {
        {{-957, -846, 1273}, {2247, -236, 90}, {0, -236, 90}, {2247, 0, 0}, 100},
        {{4529, 7580, -1273}, {3185, 1730, -610}, {3185, 1730, -610}, {0, 0, 0}, 100},
        {{1517, 4568, -466}, {1105, 251, 467}, {1105, 251, 0}, {0, 0, 467}, 100},
        {{-688, -4593, 2277}, {-884, -958, 3239}, {-688, -958, 2277}, {-196, 0, 962}, 100},
        {{-688, -4593, 2277}, {-869, -5489, 1117}, {-869, -5489, 1117}, {0, 0, 0}, 100},
        {{-688, -4593, 2277}, {-869, -5489, 1117}, {-688, -4593, 1117}, {-181, -896, 0}, 1},
    };
    for (const Decoupled& c : cases) {
        const std::int16_t* o[3] = {&c.o[0], &c.o[1], &c.o[2]};
        const std::int16_t* t[3] = {&c.t[0], &c.t[1], &c.t[2]};
        std::int16_t r[3], add[3];
        std::int16_t* rp[3] = {&r[0], &r[1], &r[2]};
        std::int16_t* ap[3] = {&add[0], &add[1], &add[2]};
        std::uint8_t angle;
        k.decouple0(o, t, 0, 1, c.gain, &angle, rp, ap);
        for (int b = 0; b < 3; ++b) {
            EXPECT_EQ(r[b], c.r[b]) << c.o[0] << " band " << b;
            EXPECT_EQ(add[b], c.a[b]) << c.o[0] << " band " << b;
        }
    }

    // CSF of A: (h) 2247 -> c 2500, m 2667; (d) 467 -> 176, 188; (h) -196 -> -218, 233.
    const std::int16_t x[3] = {2247, 467, -196};
    std::int16_t c[3], m[3];
    k.csf0(x, 0, 1, 36453, 16384, 15, c, m);
    k.csf0(x, 1, 2, 49417, 65535, 17, c, m);
    k.csf0(x, 2, 3, 36453, 16384, 15, c, m);
    EXPECT_EQ((std::vector<int>{c[0], m[0], c[1], m[1], c[2], m[2]}),
              (std::vector<int>{2500, 2667, 176, 188, -218, 233}));

    // Masking at (16,16), thr 2758: the per-band cubed terms (Cc = 1 for h and v, 2 for d).
    const std::int32_t thr = 2758;
    const std::int16_t r_h = 3185, r_v = 1730, r_d = -610;
    EXPECT_EQ(k.masked_row0(&r_h, &thr, 0, 1, 36453, 10, 29, 1), 1353766933078543);
    EXPECT_EQ(k.masked_row0(&r_v, &thr, 0, 1, 36453, 10, 29, 1), 203584232770589);
    EXPECT_EQ(k.masked_row0(&r_d, &thr, 0, 1, 49417, 12, 30, 2), 1558866313818);
}

TEST(AdmConfig, CaseAScale1Stages) {  // §15.3
    const adm::Kernels& k = baseline();
    // Decoupling at (1,2) and (8,8).
    const std::int32_t o[2][3] = {{-275823232, 12612661, 344112327},
                                  {171874035, -64298054, -72370140}};
    const std::int32_t t[2][3] = {{-241050300, 3639116, 266039940},
                                  {142594976, -39633245, -23474409}};
    const std::int32_t r_expected[2][3] = {{-241050717, 3638919, 266033862},
                                           {142590199, -39630975, -23474799}};
    const std::int32_t a_expected[2][3] = {{417, 197, 6078}, {4777, -2270, 390}};
    for (int p = 0; p < 2; ++p) {
        const std::int32_t* op[3] = {&o[p][0], &o[p][1], &o[p][2]};
        const std::int32_t* tp[3] = {&t[p][0], &t[p][1], &t[p][2]};
        std::int32_t r[3], a[3];
        std::int32_t* rp[3] = {&r[0], &r[1], &r[2]};
        std::int32_t* ap[3] = {&a[0], &a[1], &a[2]};
        std::uint8_t angle;
        k.decouple_wide(op, tp, 0, 1, 100.0, &angle, rp, ap);
        for (int b = 0; b < 3; ++b) {
            EXPECT_EQ(r[b], r_expected[p][b]) << p << " " << b;
            EXPECT_EQ(a[b], a_expected[p][b]) << p << " " << b;
        }
    }
    // CSF of A at (8,8), and the /30 map's -1 for |c| <= 14.
    const std::int32_t x[3] = {4777, -2270, 390};
    std::int32_t c[3], m[3];
    k.csf_wide(x, 0, 2, 137373792, c, m);
    k.csf_wide(x, 2, 3, 61414028, c, m);
    EXPECT_EQ((std::vector<int>{c[0], c[1], c[2], m[0], m[1], m[2]}),
              (std::vector<int>{2445, -1162, 89, 81, 38, 2}));
    const std::int32_t small[3] = {14, 15, -9};  // U = 2^28 leaves c = x
    k.csf_wide(small, 0, 3, 268435456, c, m);
    EXPECT_EQ((std::vector<int>{c[0], c[1], c[2], m[0], m[1], m[2]}),
              (std::vector<int>{14, 15, -9, -1, 0, -1}));
    // Masking at (1,2): thr 500168, Cc = clog2(16) = 4.
    const std::int32_t thr = 500168;
    const std::int32_t xs[3] = {-123359453, 1862243, 60864579};
    const std::int64_t expected[3] = {107945388715145, 147104100, 12803333073633};
    for (int b = 0; b < 3; ++b)
        EXPECT_EQ(k.masked_row_wide(&xs[b], &thr, 0, 1, 4), expected[b]) << b;
}

}  // namespace
}  // namespace vq::test
