// ADM: every kernel variant this CPU runs gives the baseline's bits, row by row on full-range
// random and adversarial values, and frame by frame on adversarial planes (flat, extremes,
// noise, checkerboards, inverted, odd sizes, 8 to 16 bits, every CSF mode, integral and
// non-integral gain limits).
#include <algorithm>
#include <limits>
#include <random>
#include <utility>

#include <gtest/gtest.h>

#include "adm_test_support.hpp"
#include "metrics/adm/adm_cpu_kernels.hpp"

namespace vq::test {
namespace {

const adm::Kernels& baseline() { return adm::available_kernels().back(); }

// Random values biased toward the edges of the type's range and toward small magnitudes.
template <typename T>
std::vector<T> adversarial_row(std::mt19937& rng, int size, int magnitude_bits) {
    const std::int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const std::int64_t limit = std::min<std::int64_t>(hi, (std::int64_t(1) << magnitude_bits) - 1);
    std::vector<T> row(size);
    for (auto& v : row) {
        switch (rng() % 6) {
        case 0: v = T(std::int64_t(rng() % 5) - 2); break;
        case 1: v = T(rng() % 2 ? lo : hi); break;
        case 2: v = T(rng() % 2 ? -limit : limit); break;
        default: v = T(std::int64_t(rng() % (2 * std::uint64_t(limit) + 1)) - limit); break;
        }
    }
    return row;
}

// A row of a scale 1-3 band: int32 values in [-(2^31 - 1), 2^31 - 1]. INT32_MIN is left out: no
// DWT output reaches it, and two of its squares overflow the angle test's 64-bit sums (as they
// would the reference's).
std::vector<std::int32_t> wide_band_row(std::mt19937& rng, int size, int magnitude_bits) {
    auto row = adversarial_row<std::int32_t>(rng, size, magnitude_bits);
    std::replace(row.begin(), row.end(), std::numeric_limits<std::int32_t>::min(),
                 -std::numeric_limits<std::int32_t>::max());
    return row;
}

TEST(AdmKernels, EveryVariantListedBaselineLast) {
    ASSERT_FALSE(adm::available_kernels().empty());
    EXPECT_STREQ(baseline().instruction_set, "baseline");
    for (const auto& k : adm::available_kernels())
        std::printf("[ adm ] variant %s\n", k.instruction_set);
}

// The vertical DWT of scale 0 on pixels of every depth, a third of them at 0 or the depth's
// maximum (the largest centred magnitudes), over widths around each vector length.
TEST(AdmKernels, PixelDwtRowsMatchBaseline) {
    std::mt19937 rng(3);
    for (const adm::Kernels& k : adm::available_kernels())
        for (const int depth : {8, 10, 12, 16})
            for (const int width : {1, 15, 16, 17, 31, 32, 33, 64, 100, 1920}) {
                const unsigned top = (1u << depth) - 1;
                std::vector<std::uint16_t> rows[4];
                for (auto& row : rows) {
                    row.resize(std::size_t(width));
                    for (auto& v : row)
                        v = std::uint16_t(rng() % 3 == 0 ? (rng() % 2 ? top : 0) : rng() & top);
                }
                std::vector<std::int16_t> lo[2], hi[2];
                for (int v = 0; v < 2; ++v) {
                    const adm::Kernels& kernels = v == 0 ? baseline() : k;
                    lo[v].assign(std::size_t(width), 0);
                    hi[v].assign(std::size_t(width), 0);
                    if (depth == 8) {
                        std::vector<std::uint8_t> bytes[4];
                        const std::uint8_t* in[4];
                        for (int t = 0; t < 4; ++t) {
                            bytes[t].assign(rows[t].begin(), rows[t].end());
                            in[t] = bytes[t].data();
                        }
                        kernels.dwt0_vertical_8(in, width, depth, lo[v].data(), hi[v].data());
                    } else {
                        const std::uint16_t* in[4] = {rows[0].data(), rows[1].data(),
                                                      rows[2].data(), rows[3].data()};
                        kernels.dwt0_vertical_16(in, width, depth, lo[v].data(), hi[v].data());
                    }
                }
                EXPECT_EQ(lo[0], lo[1])
                    << k.instruction_set << " depth " << depth << " width " << width;
                EXPECT_EQ(hi[0], hi[1])
                    << k.instruction_set << " depth " << depth << " width " << width;
            }
}

TEST(AdmKernels, DecouplingRowsMatchBaseline) {
    std::mt19937 rng(7);
    constexpr int n = 203;
    for (const adm::Kernels& k : adm::available_kernels())
        for (double gain : {100.0, 1.0, 1.5, 37.25})
            for (int bits : {6, 12, 15, 20, 31}) {
                // Scale 0: int16 bands.
                std::vector<std::int16_t> o[3], t[3];
                for (int b = 0; b < 3; ++b) {
                    o[b] = adversarial_row<std::int16_t>(rng, n, std::min(bits, 15));
                    t[b] =
                        b == 0 ? o[b] : adversarial_row<std::int16_t>(rng, n, std::min(bits, 15));
                    if (b == 1)
                        for (int j = 0; j < n; j += 3)
                            t[b][j] = std::int16_t(o[b][j] / 2);  // passes the angle test
                }
                std::vector<std::int16_t> r16[2][3], a16[2][3];
                std::vector<std::uint8_t> angle(n);
                for (int v = 0; v < 2; ++v) {
                    const adm::Kernels& kernels = v == 0 ? baseline() : k;
                    const std::int16_t* op[3] = {o[0].data(), o[1].data(), o[2].data()};
                    const std::int16_t* tp[3] = {t[0].data(), t[1].data(), t[2].data()};
                    std::int16_t *rp[3], *ap[3];
                    for (int b = 0; b < 3; ++b) {
                        r16[v][b].assign(n, 0);
                        a16[v][b].assign(n, 0);
                        rp[b] = r16[v][b].data();
                        ap[b] = a16[v][b].data();
                    }
                    kernels.decouple0(op, tp, 1, n, gain, angle.data(), rp, ap);
                }
                for (int b = 0; b < 3; ++b) {
                    EXPECT_EQ(r16[0][b], r16[1][b])
                        << k.instruction_set << " gain " << gain << " bits " << bits;
                    EXPECT_EQ(a16[0][b], a16[1][b])
                        << k.instruction_set << " gain " << gain << " bits " << bits;
                }

                // Scales 1-3: int32 bands.
                std::vector<std::int32_t> ow[3], tw[3];
                for (int b = 0; b < 3; ++b) {
                    ow[b] = wide_band_row(rng, n, bits);
                    tw[b] = b == 0 ? ow[b] : wide_band_row(rng, n, bits);
                    if (b == 1)
                        for (int j = 0; j < n; j += 3) tw[b][j] = ow[b][j] / 4 * 3;
                }
                std::vector<std::int32_t> r32[2][3], a32[2][3];
                for (int v = 0; v < 2; ++v) {
                    const adm::Kernels& kernels = v == 0 ? baseline() : k;
                    const std::int32_t* op[3] = {ow[0].data(), ow[1].data(), ow[2].data()};
                    const std::int32_t* tp[3] = {tw[0].data(), tw[1].data(), tw[2].data()};
                    std::int32_t *rp[3], *ap[3];
                    for (int b = 0; b < 3; ++b) {
                        r32[v][b].assign(n, 0);
                        a32[v][b].assign(n, 0);
                        rp[b] = r32[v][b].data();
                        ap[b] = a32[v][b].data();
                    }
                    kernels.decouple_wide(op, tp, 2, n, gain, angle.data(), rp, ap);
                }
                for (int b = 0; b < 3; ++b) {
                    EXPECT_EQ(r32[0][b], r32[1][b])
                        << k.instruction_set << " wide gain " << gain << " bits " << bits;
                    EXPECT_EQ(a32[0][b], a32[1][b])
                        << k.instruction_set << " wide gain " << gain << " bits " << bits;
                }
            }
}

// Every variant's decoupling of the bands o and t (columns [0, n), gain limit 100) against the
// baseline's. `decouple` calls one of a Kernels' decoupling rows.
template <typename Coef, typename Decouple>
void expect_every_variant_decouples_as_baseline(const std::vector<Coef> (&o)[3],
                                                const std::vector<Coef> (&t)[3],
                                                Decouple decouple) {
    const int n = int(o[0].size());
    const Coef* op[3] = {o[0].data(), o[1].data(), o[2].data()};
    const Coef* tp[3] = {t[0].data(), t[1].data(), t[2].data()};
    std::vector<std::uint8_t> angle(static_cast<std::size_t>(n));
    std::vector<Coef> r[2][3], a[2][3];
    auto run = [&](const adm::Kernels& kernels, int v) {
        Coef *rp[3], *ap[3];
        for (int b = 0; b < 3; ++b) {
            r[v][b].assign(std::size_t(n), 0);
            a[v][b].assign(std::size_t(n), 0);
            rp[b] = r[v][b].data();
            ap[b] = a[v][b].data();
        }
        decouple(kernels, op, tp, n, angle.data(), rp, ap);
    };
    run(baseline(), 0);
    for (const adm::Kernels& k : adm::available_kernels()) {
        run(k, 1);
        for (int b = 0; b < 3; ++b) {
            EXPECT_EQ(r[0][b], r[1][b]) << k.instruction_set << " band " << b;
            EXPECT_EQ(a[0][b], a[1][b]) << k.instruction_set << " band " << b;
        }
    }
}

// Scale 0's decoupling for every int16 reference coefficient in each band, against random
// distorted ones and ones a third as large (which pass the angle test and meet the gain limit).
TEST(AdmKernels, DecouplingMatchesBaselineForEveryCoefficient) {
    std::mt19937 rng(11);
    constexpr int n = 65536;
    std::vector<std::int16_t> o[3], t[3];
    for (int b = 0; b < 3; ++b) {
        o[b].resize(n);
        for (int j = 0; j < n; ++j) o[b][j] = std::int16_t(j - 32768);
        std::shuffle(o[b].begin(), o[b].end(), rng);
        t[b] = adversarial_row<std::int16_t>(rng, n, 15);
        for (int j = 0; j < n; j += 2) t[b][j] = std::int16_t(o[b][j] / 3);  // same signs, smaller
    }
    expect_every_variant_decouples_as_baseline(
        o, t, [](const adm::Kernels& k, auto op, auto tp, int count, auto angle, auto rp, auto ap) {
            k.decouple0(op, tp, 0, count, 100.0, angle, rp, ap);
        });
}

// Scales 1-3: reference coefficients whose divisors (rounded to 15 significant bits) take every
// value from 1 to 32768, either sign, against random distorted ones and ones three quarters as
// large (which pass the angle test and meet the gain limit).
TEST(AdmKernels, WideDecouplingMatchesBaselineForEveryDivisor) {
    std::mt19937 rng(13);
    std::vector<std::int32_t> every;
    for (std::int32_t m = 1; m < 32768; ++m) every.push_back(m);
    for (std::int32_t m : {65535, 1 << 20, (1 << 30) - 1}) every.push_back(m);  // round to 32768
    const int n = int(every.size()) * 2;
    std::vector<std::int32_t> o[3], t[3];
    for (int b = 0; b < 3; ++b) {
        for (std::int32_t m : every) {
            o[b].push_back(m);
            o[b].push_back(-m);
        }
        std::shuffle(o[b].begin(), o[b].end(), rng);
        t[b] = wide_band_row(rng, n, 24);
        for (int j = 0; j < n; j += 2) t[b][j] = o[b][j] / 4 * 3;
    }
    expect_every_variant_decouples_as_baseline(
        o, t, [](const adm::Kernels& k, auto op, auto tp, int count, auto angle, auto rp, auto ap) {
            k.decouple_wide(op, tp, 0, count, 100.0, angle, rp, ap);
        });
}

TEST(AdmKernels, DwtCsfMaskingAndDenominatorRowsMatchBaseline) {
    std::mt19937 rng(11);
    for (const adm::Kernels& k : adm::available_kernels())
        for (int count : {1, 7, 8, 9, 16, 17, 31, 33, 100}) {
            const int width = 2 * count + 4;
            // Horizontal DWT at scale 0 and above, on full-range rows (index -2 .. width + 1).
            auto lo16 = adversarial_row<std::int16_t>(rng, width + 4, 15);
            auto hi16 = adversarial_row<std::int16_t>(rng, width + 4, 15);
            std::vector<std::int16_t> out16[2][4];
            auto lo32 = adversarial_row<std::int32_t>(rng, width + 4, 31);
            auto hi32 = adversarial_row<std::int32_t>(rng, width + 4, 31);
            std::vector<std::int32_t> out32[2][4];
            for (int v = 0; v < 2; ++v) {
                const adm::Kernels& kernels = v == 0 ? baseline() : k;
                for (int b = 0; b < 4; ++b) {
                    out16[v][b].assign(count, 0);
                    out32[v][b].assign(count, 0);
                }
                kernels.dwt0_horizontal(lo16.data() + 2, hi16.data() + 2, count, out16[v][0].data(),
                                        out16[v][1].data(), out16[v][2].data(), out16[v][3].data());
            }
            for (int b = 0; b < 4; ++b)
                EXPECT_EQ(out16[0][b], out16[1][b]) << k.instruction_set << " count " << count;
            // Scales 1-3 round with (16384, 15), (32768, 16) and (16384, 15) again.
            for (const auto& [add, shift] : {std::pair{16384, 15}, {32768, 16}}) {
                for (int v = 0; v < 2; ++v) {
                    const adm::Kernels& kernels = v == 0 ? baseline() : k;
                    kernels.dwt_wide_horizontal(lo32.data() + 2, hi32.data() + 2, count, add, shift,
                                                out32[v][0].data(), out32[v][1].data(),
                                                out32[v][2].data(), out32[v][3].data());
                }
                for (int b = 0; b < 4; ++b)
                    EXPECT_EQ(out32[0][b], out32[1][b])
                        << k.instruction_set << " count " << count << " shift " << shift;
            }

            // CSF, threshold, masked sums and cubes over a row of `width` columns.
            const auto x16 = adversarial_row<std::int16_t>(rng, width + 4, 15);
            const auto x32 = adversarial_row<std::int32_t>(rng, width + 4, 31);
            std::vector<std::int16_t> c16[2], m16[2];
            std::vector<std::int32_t> c32[2], m32[2], thr[2];
            std::int64_t masked[2][2];
            std::uint64_t cubes[2][2];
            for (int v = 0; v < 2; ++v) {
                const adm::Kernels& kernels = v == 0 ? baseline() : k;
                c16[v].assign(width + 4, 0);
                m16[v].assign(width + 4, 0);
                c32[v].assign(width + 4, 0);
                m32[v].assign(width + 4, 0);
                thr[v].assign(width + 4, 0);
                kernels.csf0(x16.data(), 0, width + 4, 65535, 65535, 17, c16[v].data(),
                             m16[v].data());
                kernels.csf_wide(x32.data(), 0, width + 4, 4294967295u, c32[v].data(),
                                 m32[v].data());
                const std::int16_t* maps16[9];
                const std::int16_t* centres16[3];
                const std::int32_t* maps32[9];
                const std::int32_t* centres32[3];
                for (int i = 0; i < 9; ++i) {
                    maps16[i] = (i % 2 ? x16 : m16[v]).data() + 1 + i % 3;
                    maps32[i] = (i % 2 ? x32 : m32[v]).data() + 1 + i % 3;
                }
                for (int b = 0; b < 3; ++b) {
                    centres16[b] = c16[v].data() + 1 + b;
                    centres32[b] = c32[v].data() + 1 + b;
                }
                kernels.threshold0(maps16, centres16, 1, width, thr[v].data());
                masked[v][0] =
                    kernels.masked_row0(x16.data(), thr[v].data(), 1, width, 65535, 12, 30, 3);
                kernels.threshold_wide(maps32, centres32, 1, width, thr[v].data());
                masked[v][1] = kernels.masked_row_wide(x32.data(), thr[v].data(), 1, width, 9);
                cubes[v][0] = kernels.cubed_row0(x16.data(), 0, width);
                cubes[v][1] = kernels.cubed_row_wide(x32.data(), 0, width, 31, 8);
            }
            EXPECT_EQ(c16[0], c16[1]) << k.instruction_set;
            EXPECT_EQ(m16[0], m16[1]) << k.instruction_set;
            EXPECT_EQ(c32[0], c32[1]) << k.instruction_set;
            EXPECT_EQ(m32[0], m32[1]) << k.instruction_set;
            EXPECT_EQ(thr[0], thr[1]) << k.instruction_set;
            EXPECT_EQ(masked[0][0], masked[1][0]) << k.instruction_set;
            EXPECT_EQ(masked[0][1], masked[1][1]) << k.instruction_set;
            EXPECT_EQ(cubes[0][0], cubes[1][0]) << k.instruction_set;
            EXPECT_EQ(cubes[0][1], cubes[1][1]) << k.instruction_set;
        }
}

// Whole frames: each variant's block equals the baseline's.
TEST(AdmKernels, FramesMatchBaseline) {
    std::mt19937 rng(3);
    struct Size {
        int w, h;
    };
    const Size sizes[] = {{33, 33},  {34, 35},   {65, 47},  {89, 45},
                          {128, 72}, {201, 133}, {641, 359}};
    const AdmOptions option_sets[] = {{},
                                      {{"adm_enhn_gain_limit", "1"}},
                                      {{"adm_enhn_gain_limit", "1.5"}},
                                      {{"adm_csf_mode", "1"}},
                                      {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "5"}},
                                      {{"adm_csf_mode", "3"}, {"adm_ref_display_height", "2160"}}};
    const char* contents[] = {"flat", "extremes", "noise", "checkerboard", "inverted", "blurred"};
    int frames = 0;
    for (const Size& size : sizes)
        for (int bit_depth : {8, 10, 12, 16}) {
            const int peak = (1 << bit_depth) - 1;
            std::vector<int> noise(std::size_t(size.w) * size.h), noise2(noise.size());
            for (auto& v : noise) v = int(rng() % (peak + 1));
            for (auto& v : noise2) v = int(rng() % (peak + 1));
            for (const char* content : contents) {
                const std::string c = content;
                auto ref = [&](int x, int y) -> int {
                    if (c == "flat") return peak / 3;
                    if (c == "extremes" || c == "checkerboard") return (x + y) % 2 ? peak : 0;
                    if (c == "blurred") return (example_r(x, y) << (bit_depth - 8)) % (peak + 1);
                    return noise[std::size_t(y) * size.w + x];
                };
                auto dis = [&](int x, int y) -> int {
                    if (c == "flat") return peak / 3 + (x == 5 && y == 7);
                    if (c == "extremes") return (x / 2 + y) % 2 ? 0 : peak;
                    if (c == "checkerboard")
                        return (x + y) % 2 ? 0 : peak;  // inverted checkerboard
                    if (c == "inverted") return peak - ref(x, y);
                    if (c == "blurred")
                        return std::clamp(ref(x, y) + noise2[std::size_t(y) * size.w + x] % 33 - 16,
                                          0, peak);
                    return noise2[std::size_t(y) * size.w + x];
                };
                const Picture r = adm_picture(size.w, size.h, bit_depth, ref);
                const Picture d = adm_picture(size.w, size.h, bit_depth, dis);
                for (const AdmOptions& options : option_sets) {
                    if (size.w > 200 && !options.empty())
                        continue;  // the large size once, with defaults
                    const adm::Scorer scorer = adm_scorer(r.format(), options);
                    const adm::Block expected = adm_block(scorer.config(), baseline(), r, d);
                    for (const adm::Kernels& k : adm::available_kernels()) {
                        const adm::Block block = adm_block(scorer.config(), k, r, d);
                        for (int s = 0; s < 4; ++s) {
                            const std::string what =
                                std::string(k.instruction_set) + " " + content + " " +
                                std::to_string(size.w) + "x" + std::to_string(size.h) + " " +
                                std::to_string(bit_depth) + "b scale " + std::to_string(s);
                            EXPECT_EQ(block.scales[s].den, expected.scales[s].den) << what;
                            EXPECT_EQ(block.scales[s].dlm, expected.scales[s].dlm) << what;
                            EXPECT_EQ(block.scales[s].aim, expected.scales[s].aim) << what;
                        }
                    }
                    ++frames;
                }
            }
        }
    EXPECT_GT(frames, 500);
}

}  // namespace
}  // namespace vq::test
