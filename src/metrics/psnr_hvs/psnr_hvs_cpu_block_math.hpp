// One 8x8 block of PSNR-HVS (spec/psnr_hvs.md §5, §7, §8): the integer DCT, the masking strength
// and the 64 error terms, written once for any lane type.
//
// INCLUDED ONCE PER LANE TYPE, inside a namespace: deliberately no include guard. The includer
// defines, before including it:
//   I32, U32, F32    int32_t / uint32_t / float, or GCC vectors of them with equal lane counts
//   F32 to_float(I32)          lane-wise int -> float conversion (round to nearest)
//   F32 rounded_sqrt(F32)      lane-wise f32(sqrtd(double(x))), i.e. a correctly rounded sqrt
//   PlaneTables                a type with float csf[64] and mask_weight[64] (indexable), e.g.
//                              psnr_hvs_cpu_tables.hpp's (the CUDA twin's: a plain struct)
// and provides <cstdint> and psnr_hvs_cpu_tables.hpp (k63, k15). Every function is VQ_HD: the
// CUDA twin compiles this very code for the device (psnr_hvs_cuda_terms.cu). Every operation below
// is the same lane-wise integer or IEEE binary32 operation for a scalar and for each vector lane,
// in the spec's order, so each lane of a vector variant is bit-identical to the scalar code on that
// lane's block. (C-style casts between I32 and U32 are value conversions for scalars and bit casts
// for vectors: both are modular, which is what the wrapping products below rely on.)

#include "cuda/host_device.hpp"  // macros only: harmless inside the includer's namespace

// Blocks are laid out [r * 8 + c] for samples and [u * 8 + v] for coefficients.
using BlockSamples = I32[64];

// half(a) of §5.1: a / 2 rounded toward zero. (a >> 31 is -1 for negative a.)
VQ_HD inline I32 half(I32 a) { return (a - (a >> 31)) >> 1; }

// R(a, c, s) of §5.1. The product and rounding wrap modulo 2^32 instead of overflowing: exact for
// every sample below 2^14 (§5.3); above that the reference's int32 overflow is undefined, and vq
// stays deterministic and the same on every variant.
template <int c, int s>
VQ_HD inline I32 lift(I32 a) {
    return (I32)((U32)a * std::uint32_t(c) + (std::uint32_t(1) << (s - 1))) >> s;
}

// The 8-point transform T of §5.2 on x[0], x[stride], ..., x[7 * stride], in place.
VQ_HD inline void fdct8(I32* x, int stride) {
    I32 t0 = x[0], t4 = x[stride], t2 = x[2 * stride], t6 = x[3 * stride];
    I32 t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
    t1 = t0 - t1;
    const I32 h1 = half(t1);
    t0 = t0 - h1;
    t4 = t4 + t5;
    const I32 h4 = half(t4);
    t5 = t5 - h4;
    t3 = t2 - t3;
    t2 = t2 - half(t3);
    t6 = t6 + t7;
    const I32 h6 = half(t6);
    t7 = h6 - t7;
    t0 = t0 + h6;
    t6 = t0 - t6;
    t2 = h4 - t2;
    t4 = t2 - t4;
    t0 = t0 - lift<13573, 15>(t4);
    t4 = t4 + lift<11585, 14>(t0);
    t0 = t0 - lift<13573, 15>(t4);
    t6 = t6 - lift<21895, 15>(t2);
    t2 = t2 + lift<15137, 14>(t6);
    t6 = t6 - lift<21895, 15>(t2);
    t3 = t3 + lift<19195, 15>(t5);
    t5 = t5 + lift<11585, 14>(t3);
    t3 = t3 - lift<7489, 13>(t5);
    t7 = half(t5) - t7;
    t5 = t5 - t7;
    t3 = h1 - t3;
    t1 = t1 - t3;
    t7 = t7 + lift<3227, 15>(t1);
    t1 = t1 - lift<6393, 15>(t7);
    t7 = t7 + lift<3227, 15>(t1);
    t5 = t5 + lift<2485, 13>(t3);
    t3 = t3 - lift<18205, 15>(t5);
    t5 = t5 + lift<2485, 13>(t3);
    const I32 out[8] = {t0, t1, t2, t3, t4, t5, t6, t7};
    for (int k = 0; k < 8; ++k) x[k * stride] = out[k];
}

// §5.3: columns first, then rows; samples in, coefficients out.
VQ_HD inline void fdct8x8(BlockSamples& block) {
    for (int c = 0; c < 8; ++c) fdct8(block + c, 8);
    for (int u = 0; u < 8; ++u) fdct8(block + 8 * u, 1);
}

// Every intermediate of §7's masking strength, in its names (the spec's worked example §11.3
// checks them all); mask is the result.
struct MaskSteps {
    F32 sum, quadrant_sum[4];      // G, S_q
    F32 mean, quadrant_mean[4];    // gm, qm_q
    F32 g2_raw, q2_raw[4];         // the sums of squared deviations before K63 / K15
    F32 g2, q2[4];                 // after
    F32 ratio, energy;             // the variance ratio and E
    F32 energy_ratio, root, mask;  // E ⊗ ratio, its square root, mask
};

VQ_HD inline int quadrant(int r, int c) { return (r >= 4 ? 1 : 0) + (c >= 4 ? 2 : 0); }

// §7 for one block: its samples and its own coefficients.
VQ_HD inline MaskSteps mask_steps(const BlockSamples& samples, const BlockSamples& coefficients,
                                  const PlaneTables& tables) {
    MaskSteps m{};
    // The float sums of §7 are exact (integers below 2^24), so integer sums give the same values.
    I32 sum{}, quadrant_sum[4]{};
    for (int i = 0; i < 64; ++i) {
        sum = sum + samples[i];
        quadrant_sum[quadrant(i / 8, i % 8)] = quadrant_sum[quadrant(i / 8, i % 8)] + samples[i];
    }
    m.sum = to_float(sum);
    m.mean = m.sum / 64.0f;
    for (int q = 0; q < 4; ++q) {
        m.quadrant_sum[q] = to_float(quadrant_sum[q]);
        m.quadrant_mean[q] = m.quadrant_sum[q] / 16.0f;
    }
    for (int i = 0; i < 64; ++i) {
        const int q = quadrant(i / 8, i % 8);
        const F32 sample = to_float(samples[i]);
        const F32 dg = sample - m.mean;
        m.g2_raw = m.g2_raw + dg * dg;
        const F32 dq = sample - m.quadrant_mean[q];
        m.q2_raw[q] = m.q2_raw[q] + dq * dq;
    }
    m.g2 = m.g2_raw * k63;
    for (int q = 0; q < 4; ++q) m.q2[q] = m.q2_raw[q] * k15;
    // A flat block has g2 = 0 and ratio 0. (Vector lanes divide by zero there; the select drops
    // the result.)
    m.ratio = m.g2 > F32{} ? (((m.q2[0] + m.q2[1]) + m.q2[2]) + m.q2[3]) / m.g2 : F32{};
    for (int i = 1; i < 64; ++i) {
        // C² is an integer (wrapping like lift() beyond the contract's range), rounded to float.
        const F32 square = to_float((I32)((U32)coefficients[i] * (U32)coefficients[i]));
        m.energy = m.energy + square * tables.mask_weight[i];
    }
    m.energy_ratio = m.energy * m.ratio;
    m.root = rounded_sqrt(m.energy_ratio);
    m.mask = m.root / 32.0f;
    return m;
}

// §8 for one block: the 64 terms t ⊗ t the plane's accumulator adds, in raster order.
VQ_HD inline void block_terms(const BlockSamples& reference, const BlockSamples& distorted,
                              const PlaneTables& tables, F32* terms) {
    BlockSamples reference_dct, distorted_dct;
    for (int i = 0; i < 64; ++i) {
        reference_dct[i] = reference[i];
        distorted_dct[i] = distorted[i];
    }
    fdct8x8(reference_dct);
    fdct8x8(distorted_dct);
    const F32 reference_mask = mask_steps(reference, reference_dct, tables).mask;
    const F32 distorted_mask = mask_steps(distorted, distorted_dct, tables).mask;
    const F32 mask = distorted_mask > reference_mask ? distorted_mask : reference_mask;
    for (int i = 0; i < 64; ++i) {
        const I32 difference = reference_dct[i] - distorted_dct[i];
        F32 error = to_float(difference < 0 ? -difference : difference);
        if (i != 0) {  // the DC error is never masked
            const F32 threshold = mask / tables.mask_weight[i];
            error = error < threshold ? F32{} : error - threshold;
        }
        const F32 weighted = error * tables.csf[i];
        terms[i] = weighted * weighted;
    }
}
