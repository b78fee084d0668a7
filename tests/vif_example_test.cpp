// Integer VIF: the worked examples of spec/vmaf.md §9.1-§9.3 and §9.6, stage by stage and per
// scale, with the plain stages.
#include <array>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/vif/vif_cpu_stages.hpp"
#include "vif_test_support.hpp"

namespace vq::test {
namespace {

using vif::ScaleSums;

// Both planes of a frame as plain uint16 images at all four scales (scale 0 copied).
struct Pyramid {
    int bit_depth = 8;
    std::array<std::array<std::vector<std::uint16_t>, 4>, 2> samples;  // [ref/dist][scale]
    std::array<std::array<PlaneView<std::uint16_t>, 4>, 2> views;

    const PlaneView<std::uint16_t>& ref(int scale) const { return views[0][scale]; }
    const PlaneView<std::uint16_t>& dist(int scale) const { return views[1][scale]; }
};

Pyramid pyramid(const std::pair<Picture, Picture>& frames) {
    Pyramid result;
    const VideoFormat& format = frames.first.format();
    result.bit_depth = format.bit_depth;
    for (int plane = 0; plane < 2; ++plane) {
        const Picture& picture = plane == 0 ? frames.first : frames.second;
        auto& samples = result.samples[plane];
        auto& views = result.views[plane];
        samples[0].resize(std::size_t(format.width) * format.height);
        for (std::size_t i = 0; i < samples[0].size(); ++i)
            samples[0][i] = format.bit_depth > 8 ? picture.plane<std::uint16_t>(0).data[i]
                                                 : picture.plane<std::uint8_t>(0).data[i];
        views[0] = {samples[0].data(), format.width, format.height, format.width};
        for (int s = 1; s < 4; ++s) {
            const auto& source = views[s - 1];
            const int w = source.width / 2, h = source.height / 2;
            samples[s].resize(std::size_t(w) * h);
            vif::decimate(source, s, vif::working_bits(s - 1, format.bit_depth), samples[s].data());
            views[s] = {samples[s].data(), w, h, w};
        }
    }
    return result;
}

std::vector<std::uint32_t> row_values(const PlaneView<std::uint16_t>& view, int row, int count) {
    return {view.row(row), view.row(row) + count};
}

vif::VerticalSums vertical_at(const Pyramid& p, int scale, int i, int j) {
    const vif::Filter& f = vif::filter(scale);
    std::array<const std::uint16_t*, vif::max_taps> ref_rows{}, dist_rows{};
    for (int k = 0; k < f.taps; ++k) {
        ref_rows[k] = p.ref(scale).row(mirror(i - f.radius + k, p.ref(scale).height));
        dist_rows[k] = p.dist(scale).row(mirror(i - f.radius + k, p.dist(scale).height));
    }
    return vif::vertical_sums(ref_rows.data(), dist_rows.data(), f, j);
}

vif::LocalStatistics local_at(const Pyramid& p, int scale, int i, int j) {
    const vif::Filter& f = vif::filter(scale);
    const int bits = vif::working_bits(scale, p.bit_depth);
    vif::MomentRow row(p.ref(scale).width, f.radius);
    for (int c = 0; c < row.width; ++c) {
        const vif::VerticalMoments v = vif::round_vertical(vertical_at(p, scale, i, c), bits);
        const std::size_t at = std::size_t(c + f.radius);
        row.m1[at] = v.m1;
        row.m2[at] = v.m2;
        row.qxx[at] = v.qxx;
        row.qyy[at] = v.qyy;
        row.qxy[at] = v.qxy;
    }
    row.mirror_edges();
    return vif::horizontal_statistics(row, f, j);
}

ScaleSums contribution(const vif::LocalStatistics& local, double gain_limit = 100.0) {
    ScaleSums sums;
    vif::accumulate_pixel(local, gain_limit, sums);
    return sums;
}

long luma_sum(const Picture& picture) {
    long sum = 0;
    const VideoFormat& format = picture.format();
    for (int i = 0; i < format.width * format.height; ++i)
        sum += format.bit_depth > 8 ? picture.plane<std::uint16_t>(0).data[i]
                                    : picture.plane<std::uint8_t>(0).data[i];
    return sum;
}

TEST(VifExample, InputFramesMatchSection91) {
    const long sums[3][4] = {{463365, 428779, 1859604, 1721260},
                             {472581, 436055, 1896468, 1750364},
                             {481983, 443632, 1934076, 1780672}};
    for (int t = 0; t < 3; ++t) {
        const auto eight = vmaf_example_pair(t, 8);
        const auto ten = vmaf_example_pair(t, 10);
        EXPECT_EQ(luma_sum(eight.first), sums[t][0]) << t;
        EXPECT_EQ(luma_sum(eight.second), sums[t][1]) << t;
        EXPECT_EQ(luma_sum(ten.first), sums[t][2]) << t;
        EXPECT_EQ(luma_sum(ten.second), sums[t][3]) << t;
    }
    const int ref_row0[8] = {0, 9, 32, 8, 59, 63, 20, 52};
    const int dist_row0[8] = {0, 6, 30, 7, 59, 64, 22, 55};
    const int ref10_row0[8] = {0, 37, 130, 35, 236, 253, 82, 211};
    for (int x = 0; x < 8; ++x) {
        EXPECT_EQ(vmaf_example_luma(0, false, 8, x, 0), ref_row0[x]);
        EXPECT_EQ(vmaf_example_luma(0, true, 8, x, 0), dist_row0[x]);
        EXPECT_EQ(vmaf_example_luma(0, false, 10, x, 0), ref10_row0[x]);
    }
}

TEST(VifExample, EightBitVerticalPassAtScale0) {  // §9.2, first table
    const Pyramid p = pyramid(vmaf_example_pair(0, 8));
    const std::uint64_t expected[3][5] = {{1315206, 1364830, 46684874, 46106250, 46230826},
                                          {1970088, 2006592, 76259996, 77899120, 76825054},
                                          {2992620, 2960470, 152595588, 150909206, 151495716}};
    const std::uint32_t rounded[3][2] = {{5138, 5331}, {7696, 7838}, {11690, 11564}};
    for (int col = 0; col < 3; ++col) {
        const vif::VerticalSums sums = vertical_at(p, 0, 0, col);
        EXPECT_EQ(sums.a1, expected[col][0]);
        EXPECT_EQ(sums.a2, expected[col][1]);
        EXPECT_EQ(sums.axx, expected[col][2]);
        EXPECT_EQ(sums.ayy, expected[col][3]);
        EXPECT_EQ(sums.axy, expected[col][4]);
        const vif::VerticalMoments m = vif::round_vertical(sums, 8);
        EXPECT_EQ(m.m1, rounded[col][0]);
        EXPECT_EQ(m.m2, rounded[col][1]);
        EXPECT_EQ(m.qxx, expected[col][2]);  // unshifted at scale 0, 8 bits
        EXPECT_EQ(m.qyy, expected[col][3]);
        EXPECT_EQ(m.qxy, expected[col][4]);
    }
}

TEST(VifExample, EightBitLocalStatisticsAndContributions) {  // §9.2, second table
    struct Row {
        int scale, i, j;
        std::uint32_t mu1, mu2, xx, yy, xy;
        std::int32_t sigma1_sq, sigma2_sq, sigma12;
        ScaleSums delta;
    };
    const Row rows[] = {
        {0,
         0,
         0,
         621822512,
         622391280,
         113873777,
         113881390,
         113650467,
         23846727,
         23689573,
         23541071,
         {10971, 15391, 0, 0}},
        {0,
         5,
         7,
         854562510,
         854643545,
         196226466,
         196186389,
         195988690,
         26195583,
         26123257,
         25941683,
         {11347, 15667, 0, 0}},
        {0,
         32,
         32,
         2176362480u,
         2177938308u,
         1123016376,
         1127418316,
         1124923817,
         20201542,
         23005885,
         21310474,
         {10525, 14904, 0, 0}},
        {0,
         63,
         63,
         1728053248,
         1723699900,
         695271424,
         691889471,
         693517788,
         0,
         116719,
         -2094,
         {0, 0, 116719, 1}},
        {1,
         0,
         0,
         656932678,
         657164036,
         102675780,
         102686114,
         102679858,
         2195261,
         2134808,
         2163952,
         {8383, 8498, 0, 0}},
        {2,
         15,
         15,
         1734121178,
         1724204228,
         700228362,
         692191498,
         696150972,
         65578,
         13883,
         -7779,
         {0, 0, 13883, 1}},
        {3,
         5,
         7,
         2820108224u,
         2194701152u,
         1867919747,
         1154244394,
         1436773226,
         16215218,
         32765972,
         -4284259,
         {0, 14259, 0, 0}},
        {3,
         7,
         7,
         1921146944,
         1808761728,
         875893865,
         767692439,
         815531052,
         16561226,
         5959284,
         6468531,
         {1583, 14321, 0, 0}},
    };
    const Pyramid p = pyramid(vmaf_example_pair(0, 8));
    for (const Row& r : rows) {
        SCOPED_TRACE(::testing::Message()
                     << "scale " << r.scale << " (" << r.i << "," << r.j << ")");
        // The spec's (i, j) is (row, column).
        const vif::LocalStatistics local = local_at(p, r.scale, r.i, r.j);
        EXPECT_EQ(local.mu1, r.mu1);
        EXPECT_EQ(local.mu2, r.mu2);
        EXPECT_EQ(local.xx, r.xx);
        EXPECT_EQ(local.yy, r.yy);
        EXPECT_EQ(local.xy, r.xy);
        EXPECT_EQ(local.sigma1_sq, r.sigma1_sq);
        EXPECT_EQ(local.sigma2_sq, r.sigma2_sq);
        EXPECT_EQ(local.sigma12, r.sigma12);
        EXPECT_EQ(contribution(local), r.delta);
    }
}

TEST(VifExample, EightBitIntermediatesAndNegGain) {  // §9.2, the worked pixels
    const Pyramid p = pyramid(vmaf_example_pair(0, 8));
    EXPECT_EQ(vif::fixed_log2(23977799), 31775 + 9 * 2048);
    EXPECT_EQ(vif::fixed_log2(23820644), 50188);
    EXPECT_EQ(vif::fixed_log2(581312), 39217);
    // Scale 0 (32,32) has a contrast gain above 1: NEG's limit lowers its Δnum_log.
    EXPECT_EQ(contribution(local_at(p, 0, 32, 32), 1.0).num_log, 10218);
    EXPECT_EQ(contribution(local_at(p, 0, 32, 32), 1.0).den_log, 14904);
}

TEST(VifExample, EightBitDownsampledValues) {  // §9.2, first downsampled values
    const Pyramid p = pyramid(vmaf_example_pair(0, 8));
    using Values = std::vector<std::uint32_t>;
    EXPECT_EQ(row_values(p.ref(1), 0, 4), (Values{7040, 8287, 10058, 11136}));
    EXPECT_EQ(row_values(p.ref(1), 1, 4), (Values{8355, 9311, 10725, 11982}));
    EXPECT_EQ(row_values(p.dist(1), 0, 4), (Values{7140, 8272, 9944, 11127}));
    EXPECT_EQ(row_values(p.ref(2), 0, 4), (Values{8747, 10426, 12744, 15091}));
    EXPECT_EQ(row_values(p.ref(3), 0, 4), (Values{9614, 12958, 16663, 20572}));
}

struct ScaleExpectation {
    ScaleSums sums;
    double score;
};

void expect_frame(const vif::Block& block, const ScaleExpectation (&expected)[4], int frame) {
    for (int s = 0; s < 4; ++s) {
        SCOPED_TRACE(::testing::Message() << "frame " << frame << " scale " << s);
        EXPECT_EQ(block.scales[s], expected[s].sums);
        EXPECT_EQ(vif::score_scale(block.scales[s]).score, expected[s].score);
    }
}

TEST(VifExample, EightBitPerScaleResults) {  // §9.2, per-scale table
    const ScaleExpectation expected[3][4] = {
        {{{29892101, 53443236, 62564038, 521}, 0.56794804334640503},
         {{6734303, 9297706, 2115552, 117}, 0.73122358322143555},
         {{1757250, 2442893, 775626, 22}, 0.72441375255584717},
         {{507787, 700207, 0, 0}, 0.72519552707672119}},
        {{{29895408, 53535341, 63395318, 523}, 0.56708306074142456},
         {{6723545, 9325150, 1874052, 116}, 0.72794258594512939},
         {{1753347, 2452903, 658203, 21}, 0.71971869468688965},
         {{505649, 700925, 0, 0}, 0.72140240669250488}},
        {{{30006592, 53659843, 62994303, 520}, 0.56777596473693848},
         {{6768633, 9377636, 2316565, 118}, 0.72877365350723267},
         {{1764140, 2466157, 592021, 21}, 0.72021842002868652},
         {{507738, 704473, 0, 0}, 0.72073447704315186}},
    };
    for (int t = 0; t < 3; ++t) {
        const auto frames = vmaf_example_pair(t, 8);
        expect_frame(vif_block(frames.first, frames.second, vif_options(), plain_kernels()),
                     expected[t], t);
    }
    const vif::ScaleScore frame0_scale0 = vif::score_scale(expected[0][0].sums);
    EXPECT_EQ(frame0_scale0.num, 15116.693359375f);
    EXPECT_EQ(frame0_scale0.den, 26616.330078125f);
    const vif::ScaleScore frame1_scale1 = vif::score_scale(expected[1][1].sums);
    EXPECT_EQ(frame1_scale1.num, 3398.979248046875f);
    EXPECT_EQ(frame1_scale1.den, 4669.2958984375f);
}

TEST(VifExample, EightBitNeg) {  // §9.2, egl = 1
    const std::int64_t num_log[3][4] = {{29282248, 6635158, 1737137, 503967},
                                        {29313381, 6620211, 1732661, 501161},
                                        {29402241, 6659238, 1741273, 502890}};
    const double scores[3][4] = {
        {0.55676025152206421, 0.72082811594009399, 0.71632957458496094, 0.71974003314971924},
        {0.55642449855804443, 0.71713662147521973, 0.71143072843551636, 0.71499943733215332},
        {0.55673253536224365, 0.71740120649337769, 0.71110504865646362, 0.71385276317596436}};
    for (int t = 0; t < 3; ++t) {
        const auto frames = vmaf_example_pair(t, 8);
        const vif::Block neg =
            vif_block(frames.first, frames.second, vif_options(1.0), plain_kernels());
        const vif::Block plain =
            vif_block(frames.first, frames.second, vif_options(), plain_kernels());
        for (int s = 0; s < 4; ++s) {
            EXPECT_EQ(neg.scales[s].num_log, num_log[t][s]) << t << " " << s;
            EXPECT_EQ(neg.scales[s].den_log, plain.scales[s].den_log) << t << " " << s;
            EXPECT_EQ(vif::score_scale(neg.scales[s]).score, scores[t][s]) << t << " " << s;
        }
    }
}

TEST(VifExample, TenBitStages) {  // §9.3, stage values
    const Pyramid p = pyramid(vmaf_example_pair(0, 10));
    const std::uint32_t expected[2][5] = {{5201, 5419, 47229266, 47156904, 47034556},
                                          {7823, 7927, 78411302, 79172772, 78578712}};
    for (int col = 0; col < 2; ++col) {
        const vif::VerticalMoments m = vif::round_vertical(vertical_at(p, 0, 0, col), 10);
        EXPECT_EQ(m.m1, expected[col][0]);
        EXPECT_EQ(m.m2, expected[col][1]);
        EXPECT_EQ(m.qxx, expected[col][2]);
        EXPECT_EQ(m.qyy, expected[col][3]);
        EXPECT_EQ(m.qxy, expected[col][4]);
    }
    const vif::LocalStatistics corner = local_at(p, 0, 0, 0);
    EXPECT_EQ(corner.sigma1_sq, 23858534);
    EXPECT_EQ(corner.sigma2_sq, 23704692);
    EXPECT_EQ(corner.sigma12, 23579957);
    EXPECT_EQ(contribution(corner), (ScaleSums{11240, 15393, 0, 0}));
    const vif::LocalStatistics flat = local_at(p, 0, 63, 63);
    EXPECT_EQ(flat.sigma1_sq, 3115);
    EXPECT_EQ(flat.sigma2_sq, 133635);
    EXPECT_EQ(contribution(flat), (ScaleSums{0, 0, 133635, 1}));
    EXPECT_EQ(row_values(p.ref(1), 0, 4), (std::vector<std::uint32_t>{7136, 8382, 10153, 11231}));
}

TEST(VifExample, TenBitPerScaleResults) {  // §9.3, per-scale table and NEG
    const ScaleExpectation expected[3][4] = {
        {{{29737699, 53434099, 67694870, 526}, 0.56529176235198975},
         {{6734274, 9296887, 1859145, 117}, 0.73128342628479004},
         {{1758648, 2445454, 552241, 21}, 0.72400343418121338},
         {{507583, 700230, 0, 0}, 0.7248803973197937}},
        {{{29730432, 53548855, 65795634, 517}, 0.5638241171836853},
         {{6722299, 9326554, 1614066, 116}, 0.72770547866821289},
         {{1753584, 2452932, 682969, 21}, 0.71980524063110352},
         {{505870, 701000, 0, 0}, 0.72164052724838257}},
        {{{29863900, 53669035, 65894138, 517}, 0.565024733543396},
         {{6770619, 9378323, 2094257, 117}, 0.72887039184570312},
         {{1764075, 2466609, 641329, 21}, 0.72006279230117798},
         {{507582, 704801, 0, 0}, 0.72017776966094971}},
    };
    for (int t = 0; t < 3; ++t) {
        const auto frames = vmaf_example_pair(t, 10);
        expect_frame(vif_block(frames.first, frames.second, vif_options(), plain_kernels()),
                     expected[t], t);
    }
    const auto frames = vmaf_example_pair(0, 10);
    const vif::Block neg =
        vif_block(frames.first, frames.second, vif_options(1.0), plain_kernels());
    const double neg_scores[4] = {0.55406743288040161, 0.72088485956192017, 0.71625083684921265,
                                  0.7195093035697937};
    for (int s = 0; s < 4; ++s)
        EXPECT_EQ(vif::score_scale(neg.scales[s]).score, neg_scores[s]) << s;
}

TEST(VifExample, OddSize37x29) {  // §9.6
    const double expected[3][4] = {
        {0.71308737993240356, 0.96843177080154419, 0.98032033443450928, 0.99905431270599365},
        {0.71054250001907349, 0.97049516439437866, 0.98162347078323364, 0.99894064664840698},
        {0.71334981918334961, 0.97313249111175537, 0.98291629552841187, 0.99811995029449463}};
    for (int t = 0; t < 3; ++t) {
        const auto frames = vmaf_example_pair(t, 8, 37, 29);
        const vif::Block block =
            vif_block(frames.first, frames.second, vif_options(), plain_kernels());
        for (int s = 0; s < 4; ++s)
            EXPECT_EQ(vif::score_scale(block.scales[s]).score, expected[t][s]) << t << " " << s;
    }
}

}  // namespace
}  // namespace vq::test
