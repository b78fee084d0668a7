// The vector variant of SSIM's hot loops, written once with GCC vector extensions (lane-wise IEEE
// float and double arithmetic; -ffp-contract=off keeps it unfused) plus the square root they
// lack. Each lane is one output element and does the operations of ssim_terms.hpp in the same
// order, so every lane's result is the baseline's bit for bit; columns a vector does not cover
// run ssim_terms.hpp itself.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, by ssim_kernels.cpp: deliberately no
// include guard. VQ_SSIM_VECTOR_BYTES selects the width: 32 (AVX2) or 64 (AVX-512). The includer
// provides <immintrin.h>, <cstring> and ssim_terms.hpp.

inline constexpr int lanes = VQ_SSIM_VECTOR_BYTES / 4;  // floats per vector

using F32 = float __attribute__((vector_size(VQ_SSIM_VECTOR_BYTES)));
using HalfF32 = float __attribute__((vector_size(VQ_SSIM_VECTOR_BYTES / 2)));
using F64 = double __attribute__((vector_size(VQ_SSIM_VECTOR_BYTES)));

#if VQ_SSIM_VECTOR_BYTES == 32
#define VQ_SSIM_LOW_HALF 0, 1, 2, 3
#define VQ_SSIM_HIGH_HALF 4, 5, 6, 7
#define VQ_SSIM_ALL_LANES 0, 1, 2, 3, 4, 5, 6, 7
#else
#define VQ_SSIM_LOW_HALF 0, 1, 2, 3, 4, 5, 6, 7
#define VQ_SSIM_HIGH_HALF 8, 9, 10, 11, 12, 13, 14, 15
#define VQ_SSIM_ALL_LANES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#endif

// A float vector's lanes as doubles (exact), in two halves.
struct Wide {
    F64 low, high;
};

VQ_SSIM_INLINE F32 load(const float* p) {
    F32 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

VQ_SSIM_INLINE void store(float* p, F32 v) { std::memcpy(p, &v, sizeof v); }

VQ_SSIM_INLINE Wide widen(F32 v) {
    const HalfF32 low = __builtin_shufflevector(v, v, VQ_SSIM_LOW_HALF);
    const HalfF32 high = __builtin_shufflevector(v, v, VQ_SSIM_HIGH_HALF);
    return {__builtin_convertvector(low, F64), __builtin_convertvector(high, F64)};
}

VQ_SSIM_INLINE F32 narrow(F64 low, F64 high) {
    return __builtin_shufflevector(__builtin_convertvector(low, HalfF32),
                                   __builtin_convertvector(high, HalfF32), VQ_SSIM_ALL_LANES);
}

VQ_SSIM_INLINE F32 square_root(F32 v) {
#if VQ_SSIM_VECTOR_BYTES == 32
    return (F32)_mm256_sqrt_ps((__m256)v);
#else
    return (F32)_mm512_sqrt_ps((__m512)v);
#endif
}

// Two vectors of outputs at a time: four independent double accumulators hide the adds' latency.
void weighted_sum_row(const float* const* sources, const float* weights, int taps, int width,
                      float* out) {
    int x = 0;
    for (; x + 2 * lanes <= width; x += 2 * lanes) {
        F64 a0{}, a1{}, a2{}, a3{};
        for (int t = 0; t < taps; ++t) {
            const F32 weight = F32{} + weights[t];
            const Wide p = widen(load(sources[t] + x) * weight);
            const Wide q = widen(load(sources[t] + x + lanes) * weight);
            a0 += p.low;
            a1 += p.high;
            a2 += q.low;
            a3 += q.high;
        }
        store(out + x, narrow(a0, a1));
        store(out + x + lanes, narrow(a2, a3));
    }
    for (; x + lanes <= width; x += lanes) {
        F64 a0{}, a1{};
        for (int t = 0; t < taps; ++t) {
            const Wide p = widen(load(sources[t] + x) * (F32{} + weights[t]));
            a0 += p.low;
            a1 += p.high;
        }
        store(out + x, narrow(a0, a1));
    }
    for (; x < width; ++x) out[x] = weighted_sum(sources, weights, taps, x);
}

// The terms of `lanes` positions in vectors (ssim_terms.hpp's terms(), lane-wise), then added to
// the sums one position at a time, in column order, as the spec's sequential sums require.
void accumulate_terms_row(const MomentRows& rows, int width, Sums& sums) {
    Sums total = sums;
    int x = 0;
    for (; x + lanes <= width; x += lanes) {
        const F32 mu_r = load(rows.mu_r + x), mu_d = load(rows.mu_d + x);
        const F32 mu_rr = mu_r * mu_r, mu_dd = mu_d * mu_d;
        F32 var_r = load(rows.e_rr + x) - mu_rr;
        var_r = var_r < 0 ? F32{} : var_r;
        F32 var_d = load(rows.e_dd + x) - mu_dd;
        var_d = var_d < 0 ? F32{} : var_d;
        F32 cov = load(rows.e_rd + x) - mu_r * mu_d;
        const F32 sd = square_root(var_r * var_d);

        const Wide r = widen(mu_r), d = widen(mu_d);
        const Wide l_den = widen((mu_rr + mu_dd) + c1);
        const Wide sd_wide = widen(sd);
        const Wide c_den = widen((var_r + var_d) + c2);
        cov = (cov < 0) & (sd <= 0) ? F32{} : cov;
        const Wide s = widen((cov + c3) / (sd + c3));

        const double c1_wide = c1, c2_wide = c2;
        const F64 l_low = (2.0 * r.low * d.low + c1_wide) / l_den.low;
        const F64 l_high = (2.0 * r.high * d.high + c1_wide) / l_den.high;
        const F64 c_low = (2.0 * sd_wide.low + c2_wide) / c_den.low;
        const F64 c_high = (2.0 * sd_wide.high + c2_wide) / c_den.high;
        const F64 lcs_low = (l_low * c_low) * s.low, lcs_high = (l_high * c_high) * s.high;
        for (int i = 0; i < lanes / 2; ++i) {
            total.ssim += lcs_low[i];
            total.l += l_low[i];
            total.c += c_low[i];
            total.s += s.low[i];
        }
        for (int i = 0; i < lanes / 2; ++i) {
            total.ssim += lcs_high[i];
            total.l += l_high[i];
            total.c += c_high[i];
            total.s += s.high[i];
        }
    }
    for (; x < width; ++x)
        accumulate(terms(rows.mu_r[x], rows.mu_d[x], rows.e_rr[x], rows.e_dd[x], rows.e_rd[x]),
                   total);
    sums = total;
}

#undef VQ_SSIM_LOW_HALF
#undef VQ_SSIM_HIGH_HALF
#undef VQ_SSIM_ALL_LANES
