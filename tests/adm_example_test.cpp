// ADM: the worked example of spec/adm.md §15, final scores to the last bit (§15.5) and the
// integer totals and per-scale floats behind them (§15.2-§15.4).
#include <gtest/gtest.h>

#include "adm_test_support.hpp"

namespace vq::test {
namespace {

struct GoldenRow {
    const char* name;
    char frame;  // 'A', 'B', 'C', 'D', 'E', 'F'
    AdmOptions options;
    double adm2, aim, adm3;
    double scale[4];
};

std::pair<Picture, Picture> example_frames(char frame) {
    switch (frame) {
    case 'B': return example_blurred(89, 45, 10);
    case 'E': return example_blurred(89, 45, 12);
    case 'F': return example_blurred(89, 45, 16);
    case 'C': {
        const Picture ref = example_blurred(64, 64, 8).first;
        return {ref, ref};
    }
    case 'D': return example_sharpened();
    default: return example_blurred(64, 64, 8);
    }
}

// §15.5, the scalar reference at %.17g.
const GoldenRow golden_rows[] = {
    {"A default",
     'A',
     {},
     0.75555385835635369,
     0.014769289390581277,
     0.87039228448288619,
     {0.60851495786537624, 0.74316340516312107, 0.87851986228555268, 0.93052401699821041}},
    {"A egl=1",
     'A',
     {{"adm_enhn_gain_limit", "1"}},
     0.75475470412419554,
     0.01478179592199181,
     0.86998645410110187,
     {0.60708372648136699, 0.74294430779127185, 0.87742029239937191, 0.93024873785175743}},
    {"A nvd=5",
     'A',
     {{"adm_norm_view_dist", "5"}},
     0.80918814569738584,
     0.011653427259588173,
     0.89876735921889883,
     {0.70944442221050541, 0.77712694752629996, 0.89372853139539743, 0.93767284309166787}},
    {"A rdh=2160",
     'A',
     {{"adm_ref_display_height", "2160"}},
     0.83141407285454016,
     0.010314260303446707,
     0.91054990627554666,
     {0.75448446487377652, 0.79520938326949386, 0.90108644457434672, 0.94101980256480078}},
    {"A csf=2",
     'A',
     {{"adm_csf_mode", "2"}},
     0.78555849812252665,
     0.011751912703563265,
     0.88690329270948176,
     {0.64080610750393785, 0.75145325677117225, 0.87887453887871436, 0.92956950423740903}},
    {"A csf=2 nvd=5",
     'A',
     {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "5"}},
     0.84077549947746599,
     0.0083485338383779469,
     0.91621348281954407,
     {0.77542830063514434, 0.77605424037354132, 0.88791646701409421, 0.93193669818383584}},
    {"A csf=3",
     'A',
     {{"adm_csf_mode", "3"}},
     0.78256245408604941,
     0.012020126594926846,
     0.88527116374556125,
     {0.64585673920712972, 0.75527991790465343, 0.88047844213951598, 0.93052388457395796}},
    {"A csf=3 rdh=2160",
     'A',
     {{"adm_csf_mode", "3"}, {"adm_ref_display_height", "2160"}},
     0.86391314230137284,
     0.0067444315451498666,
     0.92858435537811146,
     {0.85317029639601361, 0.79225087346059775, 0.89426719273385569, 0.93453770289720406}},
    {"A ssz",
     'A',
     {{"adm_skip_scale0", "true"}},
     0.82211668869802068,
     0.0059505380051640532,
     0.9080830753464283,
     {0, 0.74316340516312107, 0.87851986228555268, 0.93052401699821041}},
    {"A skip aim",
     'A',
     {{"adm_skip_aim", "true"}},
     0.75555385835635369,
     0,
     0.8777769291781768,
     {0.60851495786537624, 0.74316340516312107, 0.87851986228555268, 0.93052401699821041}},
    {"B 10-bit",
     'B',
     {},
     0.75126032389689945,
     0.015520252177034923,
     0.86787003585993228,
     {0.59736704919064754, 0.74294871287222808, 0.89052603418516074, 0.86204608512848158}},
    {"E 12-bit",
     'E',
     {},
     0.75334836356043766,
     0.016777293108190112,
     0.86828553522612384,
     {0.59829765008891644, 0.74577205944942204, 0.88864387348629981, 0.8706978465616293}},
    {"F 16-bit",
     'F',
     {},
     0.74878948178051064,
     0.020093712430738653,
     0.86434788467488599,
     {0.59911083669516052, 0.7409581600680949, 0.88985702874712524, 0.84728378174324726}},
    {"C dis = ref",
     'C',
     {},
     1.0000093037112576,
     0,
     1.0000046518556287,
     {1.0000290239379088, 1.0000002565542996, 1.0000006502098553, 1.0000002214635129}},
    {"D sharpened",
     'D',
     {},
     0.90610500891507251,
     0.10886157641349045,
     0.89862171625079101,
     {0.9521249219866128, 0.92361001659820796, 0.88409508668922898, 0.78799524916472263}},
    {"D egl=1",
     'D',
     {{"adm_enhn_gain_limit", "1"}},
     0.86709648468487432,
     0.1153440817025999,
     0.87587620149113721,
     {0.8616356782210286, 0.8983113681519137, 0.87682203431157402, 0.78278127831618638}},
};

TEST(AdmExample, FramesMatchTheSpecChecks) {  // §15.1
    const auto [ref, dis] = example_blurred(64, 64, 8);
    EXPECT_EQ(luma_sum(ref), 509857);
    EXPECT_EQ(luma_sum(dis), 509461);
    const int ref_row1[8] = {9, 18, 29, 42, 57, 74, 93, 114};
    const int dis_row0[8] = {0, 7, 19, 24, 40, 49, 69, 82};
    for (int x = 0; x < 8; ++x) {
        EXPECT_EQ(ref.plane<std::uint8_t>(0).at(1, x), ref_row1[x]);
        EXPECT_EQ(dis.plane<std::uint8_t>(0).at(0, x), dis_row0[x]);
    }
    const auto [ref10, dis10] = example_blurred(89, 45, 10);
    EXPECT_EQ(luma_sum(ref10), 2000632);
    EXPECT_EQ(luma_sum(dis10), 2001713);
}

TEST(AdmExample, GoldenTableEveryKernelVariant) {  // §15.5
    for (const GoldenRow& row : golden_rows) {
        const auto [ref, dis] = example_frames(row.frame);
        const std::vector<double> scores = adm_scores(ref, dis, row.options);
        ASSERT_EQ(scores.size(), 7u);
        EXPECT_EQ(scores[0], row.adm2) << row.name;
        EXPECT_EQ(scores[1], row.aim) << row.name;
        EXPECT_EQ(scores[2], row.adm3) << row.name;
        for (int s = 0; s < 4; ++s)
            EXPECT_EQ(scores[3 + s], row.scale[s]) << row.name << " scale " << s;

        // Every variant gives the same block, hence the same scores.
        const adm::Scorer scorer = adm_scorer(ref.format(), row.options);
        const adm::Block baseline =
            adm_block(scorer.config(), adm::available_kernels().back(), ref, dis);
        for (const adm::Kernels& kernels : adm::available_kernels()) {
            const adm::Block block = adm_block(scorer.config(), kernels, ref, dis);
            for (int s = 0; s < 4; ++s) {
                EXPECT_EQ(block.scales[s].den, baseline.scales[s].den)
                    << row.name << " " << kernels.instruction_set;
                EXPECT_EQ(block.scales[s].dlm, baseline.scales[s].dlm)
                    << row.name << " " << kernels.instruction_set;
                EXPECT_EQ(block.scales[s].aim, baseline.scales[s].aim)
                    << row.name << " " << kernels.instruction_set;
            }
        }
    }
}

TEST(AdmExample, CaseAIntegerTotals) {  // §15.2 and §15.3 accumulator tables
    const auto [ref, dis] = example_blurred(64, 64, 8);
    const adm::Scorer scorer = adm_scorer(ref.format());
    const adm::Block block = adm_block(scorer.config(), adm::best_kernels(), ref, dis);
    using U = std::array<std::uint64_t, 3>;
    using I = std::array<std::int64_t, 3>;
    EXPECT_EQ(block.scales[0].den, (U{112834713839496, 163050899174085, 124497378495625}));
    EXPECT_EQ(block.scales[0].dlm, (I{97972845204918206, 5223758989595970, 1234341942648546}));
    EXPECT_EQ(block.scales[0].aim, (I{16645204005536, 35364295293802, 0}));
    EXPECT_EQ(block.scales[1].den, (U{1218920012791823, 3333155048137822, 2061036854800288}));
    EXPECT_EQ(block.scales[1].dlm, (I{231694448117499, 165529836148147, 18449193721070}));
    EXPECT_EQ(block.scales[1].aim, (I{5041701994, 407962900, 0}));
    EXPECT_EQ(block.scales[2].den, (U{26199332251336, 28000509722947, 20319457591292}));
    EXPECT_EQ(block.scales[2].dlm, (I{6793362770901, 5791513148938, 539396641085}));
    EXPECT_EQ(block.scales[2].aim, (I{0, 2526584, 0}));
    EXPECT_EQ(block.scales[3].den, (U{1780997807986, 813838569231, 332271166841}));
    EXPECT_EQ(block.scales[3].dlm, (I{1213400941428, 482077510805, 49688752597}));
    EXPECT_EQ(block.scales[3].aim, (I{0, 0, 0}));

    const adm::FrameScores frame = adm::score_frame(block, scorer.config());
    const float num[4] = {0x1.91d048p+4f, 0x1.0933a4p+5f, 0x1.9c554p+4f, 0x1.00739ep+4f};
    const float den[4] = {0x1.4a28cp+5f, 0x1.64daeep+5f, 0x1.d55984p+4f, 0x1.139962p+4f};
    const float aim[4] = {1.41349912f, 0.475983918f, 0.066504024f, 0};
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(frame.num[s], num[s]) << s;
        EXPECT_EQ(frame.den[s], den[s]) << s;
        EXPECT_FLOAT_EQ(frame.aim_num[s], aim[s]) << s;  // printed to 9 digits only
    }
    EXPECT_EQ(frame.num_total, 100.0626049041748);
    EXPECT_EQ(frame.den_total, 132.43609809875488);
    EXPECT_EQ(frame.aim_total, 1.9559870585799217);
}

TEST(AdmExample, CaseBIntegerTotals) {  // §15.4: 89x45 10-bit, odd sizes and mirrored windows
    const auto [ref, dis] = example_blurred(89, 45, 10);
    const adm::Scorer scorer = adm_scorer(ref.format());
    const adm::Block block = adm_block(scorer.config(), adm::best_kernels(), ref, dis);
    const std::array<std::array<std::uint64_t, 3>, 4> den = {{
        {107589216913257, 168323455603600, 120565200670327},
        {819867704288970, 1722206080663589, 1824381124359203},
        {18256173674928, 19873927154225, 10177891440407},
        {801687358506, 1616944631597, 263546725331},
    }};
    const std::array<std::array<std::int64_t, 3>, 4> dlm = {{
        {44587961471110057, 2362257052082699, 574093336069726},
        {157944754918396, 83479151646952, 14488747090501},
        {4959711664334, 4510092133920, 246504623773},
        {537484015441, 528904765745, 43591269273},
    }};
    const float num[4] = {24.5796337f, 35.7874527f, 28.4440746f, 17.7746067f};
    const float den_s[4] = {41.1466179f, 48.1694794f, 31.9407558f, 20.619091f};
    const float aim[4] = {1.34703422f, 0.337208509f, 0.517707705f, 0};
    const adm::FrameScores frame = adm::score_frame(block, scorer.config());
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(block.scales[s].den, den[s]) << s;
        EXPECT_EQ(block.scales[s].dlm, dlm[s]) << s;
        EXPECT_FLOAT_EQ(frame.num[s], num[s]) << s;
        EXPECT_FLOAT_EQ(frame.den[s], den_s[s]) << s;
        EXPECT_FLOAT_EQ(frame.aim_num[s], aim[s]) << s;
    }
}

TEST(AdmExample, CasesCAndDPerScaleFloats) {  // §15.5, last table
    const float c_num[4] = {41.2710953f, 44.6069107f, 29.3343735f, 17.2249508f};
    const float d_num[4] = {39.2940979f, 41.199379f, 25.9343586f, 13.5731764f};
    const float den[4] = {41.2698975f, 44.6068993f, 29.3343544f, 17.224947f};
    for (char frame : {'C', 'D'}) {
        const auto [ref, dis] = example_frames(frame);
        const adm::Scorer scorer = adm_scorer(ref.format());
        const adm::FrameScores scores = adm::score_frame(
            adm_block(scorer.config(), adm::best_kernels(), ref, dis), scorer.config());
        for (int s = 0; s < 4; ++s) {
            EXPECT_FLOAT_EQ(scores.num[s], frame == 'C' ? c_num[s] : d_num[s]) << frame << s;
            EXPECT_FLOAT_EQ(scores.den[s], den[s]) << frame << s;
        }
    }
}

TEST(AdmExample, SkipScale0Totals) {  // §15.5: pooled num and den with ssz, den_0 = f32(1e-10)
    const auto [ref, dis] = example_blurred(64, 64, 8);
    const adm::Scorer scorer = adm_scorer(ref.format(), {{"adm_skip_scale0", "true"}});
    const adm::FrameScores frame = adm::score_frame(
        adm_block(scorer.config(), adm::best_kernels(), ref, dis), scorer.config());
    EXPECT_EQ(frame.num_total, 74.949254989624023);
    EXPECT_EQ(frame.den_total, 91.166200637917385);
    EXPECT_EQ(frame.den[0], float(1e-10));
    EXPECT_EQ(frame.num[0], 0.0f);
}

}  // namespace
}  // namespace vq::test
