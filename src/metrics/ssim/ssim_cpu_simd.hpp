// The vector variant of SSIM's hot loops, written once with GCC vector extensions (lane-wise IEEE
// float and double arithmetic; -ffp-contract=off keeps it unfused) plus the square root they
// lack. Each lane is one output element and does the operations of ssim_cpu_terms.hpp in the same
// order, so every lane's result is the baseline's bit for bit; columns a vector does not cover
// run ssim_cpu_terms.hpp itself.
//
// INCLUDED ONCE PER INSTRUCTION SET by ssim_cpu_variant.hpp: deliberately no include guard.
// VQ_SIMD_BITS selects the width: 256 (AVX2) or 512 (AVX-512). The includer provides
// <immintrin.h>, <cstring> and ssim_cpu_terms.hpp.

// A vector of doubles and the floats that widen into it one to one (vcvtps2pd / vcvtpd2ps).
inline constexpr int lanes = VQ_SIMD_BITS / 64;

using Floats = float __attribute__((vector_size(VQ_SIMD_BITS / 16)));
using Doubles = double __attribute__((vector_size(VQ_SIMD_BITS / 8)));

VQ_KERNEL_INLINE Floats load(const float* p) {
    Floats v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

VQ_KERNEL_INLINE void store(float* p, Floats v) { std::memcpy(p, &v, sizeof v); }

VQ_KERNEL_INLINE Floats broadcast(float value) {
    Floats v;
    for (int i = 0; i < lanes; ++i) v[i] = value;
    return v;
}

// An intrinsic: GCC 12 lowers the equivalent __builtin_convertvector in two halves.
VQ_KERNEL_INLINE Doubles widen(Floats v) {
#if VQ_SIMD_BITS == 256
    return (Doubles)_mm256_cvtps_pd((__m128)v);
#else
    return (Doubles)_mm512_cvtps_pd((__m256)v);
#endif
}

VQ_KERNEL_INLINE Floats narrow(Doubles v) { return __builtin_convertvector(v, Floats); }

VQ_KERNEL_INLINE Floats square_root(Floats v) {
#if VQ_SIMD_BITS == 256
    return (Floats)_mm_sqrt_ps((__m128)v);
#else
    return (Floats)_mm256_sqrt_ps((__m256)v);
#endif
}

// Four vectors of outputs at a time: four independent double accumulators hide the adds' latency.
void weighted_sum_row(const float* const* sources, const float* weights, int taps, int width,
                      float* out) {
    int x = 0;
    for (; x + 4 * lanes <= width; x += 4 * lanes) {
        Doubles a0{}, a1{}, a2{}, a3{};
        for (int t = 0; t < taps; ++t) {
            const Floats weight = broadcast(weights[t]);
            const float* source = sources[t] + x;
            a0 += widen(load(source) * weight);
            a1 += widen(load(source + lanes) * weight);
            a2 += widen(load(source + 2 * lanes) * weight);
            a3 += widen(load(source + 3 * lanes) * weight);
        }
        store(out + x, narrow(a0));
        store(out + x + lanes, narrow(a1));
        store(out + x + 2 * lanes, narrow(a2));
        store(out + x + 3 * lanes, narrow(a3));
    }
    for (; x + lanes <= width; x += lanes) {
        Doubles a{};
        for (int t = 0; t < taps; ++t) a += widen(load(sources[t] + x) * broadcast(weights[t]));
        store(out + x, narrow(a));
    }
    for (; x < width; ++x) out[x] = weighted_sum(sources, weights, taps, x);
}

// The terms of `lanes` positions in vectors (ssim_cpu_terms.hpp's terms(), lane-wise), then added
// to the sums one position at a time, in column order, as the spec's sequential sums require.
void accumulate_terms_row(const MomentRows& rows, int width, Sums& sums) {
    Sums total = sums;
    const Floats zero{};
    int x = 0;
    for (; x + lanes <= width; x += lanes) {
        const Floats mu_r = load(rows.mu_r + x), mu_d = load(rows.mu_d + x);
        const Floats mu_rr = mu_r * mu_r, mu_dd = mu_d * mu_d;
        Floats var_r = load(rows.e_rr + x) - mu_rr;
        var_r = var_r < 0 ? zero : var_r;
        Floats var_d = load(rows.e_dd + x) - mu_dd;
        var_d = var_d < 0 ? zero : var_d;
        Floats cov = load(rows.e_rd + x) - mu_r * mu_d;
        const Floats sd = square_root(var_r * var_d);
        const Doubles l =
            (2.0 * widen(mu_r) * widen(mu_d) + double(c1)) / widen((mu_rr + mu_dd) + c1);
        const Doubles c = (2.0 * widen(sd) + double(c2)) / widen((var_r + var_d) + c2);
        cov = (cov < 0) & (sd <= 0) ? zero : cov;
        const Doubles s = widen((cov + c3) / (sd + c3));
        const Doubles lcs = (l * c) * s;
        for (int i = 0; i < lanes; ++i) {
            total.ssim += lcs[i];
            total.l += l[i];
            total.c += c[i];
            total.s += s[i];
        }
    }
    for (; x < width; ++x)
        accumulate(terms(rows.mu_r[x], rows.mu_d[x], rows.e_rr[x], rows.e_dd[x], rows.e_rd[x]),
                   total);
    sums = total;
}
