// The ADM CUDA twin's per-coefficient arithmetic (adm_cuda_math.cuh), run on the host: the same
// functions the kernels call, checked against the spec's worked example (spec/adm.md §15) and the
// CPU twin's reciprocal table. Runs without a GPU.
#include <cstdint>

#include <gtest/gtest.h>

#include "metrics/adm/adm_cuda_math.cuh"
#include "metrics/adm/adm_div_table.hpp"
#include "metrics/toolkit/mirror.hpp"

namespace vq::adm {
namespace {

using namespace device_math;

TEST(AdmCudaMath, ReciprocalIsTheDivTable) {
    for (int n = -32768; n <= 32768; ++n) {
        if (n != 0) {
            ASSERT_EQ(reciprocal(n), div_table[div_table_centre + n]) << n;
        }
    }
}

TEST(AdmCudaMath, MirrorReflectsBothEndsAsSection3_1) {
    EXPECT_EQ(mirror_repeating_end(-1, 5), 1);
    EXPECT_EQ(mirror_repeating_end(0, 5), 0);
    EXPECT_EQ(mirror_repeating_end(4, 5), 4);
    EXPECT_EQ(mirror_repeating_end(5, 5), 4);
    EXPECT_EQ(mirror_repeating_end(6, 5), 3);
}

TEST(AdmCudaMath, Scale0DwtOfCaseA) {  // §15.2
    const Pair16 ref0 = dwt0_vertical(9, 0, 9, 22, 8);
    EXPECT_EQ(ref0.low, -22721);
    EXPECT_EQ(ref0.high, -545);
    const Pair16 dis1 = dwt0_vertical(22, 7, 22, 32, 8);
    EXPECT_EQ(dis1.low, -20960);
    EXPECT_EQ(dis1.high, -188);
    EXPECT_EQ(dwt0_low(-21462, -22721, -21462, -19842), -15808);
    // Every depth is the 8-bit formula with B = bpc: samples scaled by 2^(B-8) give the same bands.
    const Pair16 ref16 = dwt0_vertical(9 << 8, 0, 9 << 8, 22 << 8, 16);
    EXPECT_EQ(ref16.low, -22721);
    EXPECT_EQ(ref16.high, -545);
}

struct Decoupled {
    std::int32_t r[3], a[3];
    bool angle;
};

Decoupled decouple(const std::int32_t (&o)[3], const std::int32_t (&t)[3], bool scale0,
                   double gain_limit) {
    Decoupled d{};
    d.angle = within_one_degree(o[0], o[1], t[0], t[1]);
    for (int b = 0; b < 3; ++b) {
        const Split s = scale0 ? decouple0(o[b], t[b], d.angle, gain_limit)
                               : decouple_wide(o[b], t[b], d.angle, gain_limit);
        d.r[b] = s.r;
        d.a[b] = s.a;
    }
    return d;
}

void expect_split(const Decoupled& d, bool angle, const std::int32_t (&r)[3],
                  const std::int32_t (&a)[3]) {
    EXPECT_EQ(d.angle, angle);
    for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(d.r[b], r[b]) << "band " << b;
        EXPECT_EQ(d.a[b], a[b]) << "band " << b;
    }
}

TEST(AdmCudaMath, Scale0DecouplingOfCasesAAndD) {  // §15.2's table and case D
    expect_split(decouple({-957, -846, 1273}, {2247, -236, 90}, true, 100), false, {0, -236, 90},
                 {2247, 0, 0});
    expect_split(decouple({4529, 7580, -1273}, {3185, 1730, -610}, true, 100), false,
                 {3185, 1730, -610}, {0, 0, 0});
    expect_split(decouple({1517, 4568, -466}, {1105, 251, 467}, true, 100), false, {1105, 251, 0},
                 {0, 0, 467});
    expect_split(decouple({-688, -4593, 2277}, {-884, -958, 3239}, true, 100), false,
                 {-688, -958, 2277}, {-196, 0, 962});
    expect_split(decouple({-688, -4593, 2277}, {-869, -5489, 1117}, true, 100), true,
                 {-869, -5489, 1117}, {0, 0, 0});
    expect_split(decouple({-688, -4593, 2277}, {-869, -5489, 1117}, true, 1), true,
                 {-688, -4593, 1117}, {-181, -896, 0});
}

TEST(AdmCudaMath, Scale0CsfAndMasking) {  // §15.2
    EXPECT_EQ(csf0(2247, 36453, false), 2500);
    EXPECT_EQ(mask0(2500), 2667);
    EXPECT_EQ(csf0(467, 49417, true), 176);
    EXPECT_EQ(mask0(176), 188);
    const int c[9] = {0, 75, -91, 883, 0, 1021, 0, -131, 0};
    const int m[9] = {0, 80, 97, 942, 0, 1089, 0, 140, 0};
    for (int k = 0; k < 9; ++k) EXPECT_EQ(mask0(c[k]), m[k]) << k;
    // Masking at (16, 16), thr 2758, band width 32: Cc = 1 (h, v) and 2 (d).
    EXPECT_EQ(masked_cube(3185 * 36453, 2758, 10, 29, 1), 1353766933078543);
    EXPECT_EQ(masked_cube(1730 * 36453, 2758, 10, 29, 1), 203584232770589);
    EXPECT_EQ(masked_cube(-610 * 49417, 2758, 12, 30, 2), 1558866313818);
}

TEST(AdmCudaMath, Scale1DecouplingCsfAndMasking) {  // §15.3
    expect_split(
        decouple({-275823232, 12612661, 344112327}, {-241050300, 3639116, 266039940}, false, 100),
        false, {-241050717, 3638919, 266033862}, {417, 197, 6078});
    expect_split(
        decouple({171874035, -64298054, -72370140}, {142594976, -39633245, -23474409}, false, 100),
        false, {142590199, -39630975, -23474799}, {4777, -2270, 390});
    const std::uint32_t hv = 137373792, d = 61414028;  // §7.1, scale 1
    EXPECT_EQ(csf_wide(4777, hv), 2445);
    EXPECT_EQ(csf_wide(-2270, hv), -1162);
    EXPECT_EQ(csf_wide(390, d), 89);
    EXPECT_EQ(mask_wide(2445), 81);
    EXPECT_EQ(mask_wide(-1162), 38);
    EXPECT_EQ(mask_wide(89), 2);
    EXPECT_EQ(mask_wide(-9), -1);
    // Netflix#955: -1 up to |c| = 14 (/30) and 7 (/15).
    EXPECT_EQ(mask_wide(0), -1);
    EXPECT_EQ(mask_wide(14), -1);
    EXPECT_EQ(mask_wide(15), 0);
    EXPECT_EQ(centre_wide(7), -1);
    EXPECT_EQ(centre_wide(-8), 0);
    // Masking at (1, 2), thr 500168, band width 16: Cc = 4.
    EXPECT_EQ(csf_wide(-241050717, hv), -123359453);
    EXPECT_EQ(masked_cube(-123359453, 500168, 0, 30, 4), 107945388715145);
    EXPECT_EQ(masked_cube(1862243, 500168, 0, 30, 4), 147104100);
    EXPECT_EQ(masked_cube(60864579, 500168, 0, 30, 4), 12803333073633);
}

TEST(AdmCudaMath, DenominatorTerms) {  // §10
    EXPECT_EQ(den_cube0(-32768), std::uint64_t(1) << 45);
    EXPECT_EQ(den_cube0(3), 27u);
    // ((|o|^2 + 2^Pd) >> Pd) * |o| + 2^(Cd-1)) >> Cd, with the quirky 2^Pd rounding.
    // 2^16: (2^32 + 2^31) >> 31 = 3; (3 * 2^16 + 8) >> 4 = 12288.
    EXPECT_EQ(den_cube_wide(1 << 16, 31, 4), 12288u);
    // -2^31: (2^62 + 2^31) >> 31 = 2^31 + 1; ((2^31 + 1) * 2^31 + 8) >> 4 = 2^58 + 2^27.
    EXPECT_EQ(den_cube_wide(-2147483647 - 1, 31, 4),
              (std::uint64_t(1) << 58) + (std::uint64_t(1) << 27));
}

}  // namespace
}  // namespace vq::adm
