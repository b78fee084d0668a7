// Lane vectors for the CPU twin's ΔE00 kernel: GCC vector extensions, whose arithmetic is plain
// IEEE arithmetic lane by lane (float ops stay float, double ops double, and -ffp-contract=off
// keeps them unfused), plus conversions and a square root, which the extensions lack or compile
// poorly, written with the instruction set's intrinsics.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through ciede_cpu_variant.hpp:
// deliberately no include guard, and no #include here (the includer provides <immintrin.h>,
// <cstdint>). VQ_SIMD_BITS selects the instructions: 256 for AVX2 (four lanes), or 0 for the
// baseline (two lanes, the width of SSE2 and of every other 128-bit vector unit). An eight-lane
// AVX-512 copy measured no faster.

inline constexpr int lanes = VQ_SIMD_BITS == 256 ? 4 : 2;

using Fv = float __attribute__((vector_size(4 * lanes)));
using Dv = double __attribute__((vector_size(8 * lanes)));
// Lane masks are what comparisons yield (all ones or zero per lane); Iv also holds small ints.
using Iv = decltype(Fv{} < Fv{});
using Lv = decltype(Dv{} < Dv{});
using Uv = std::uint64_t __attribute__((vector_size(8 * lanes)));  // bits of Dv

#if VQ_SIMD_BITS == 256

VQ_KERNEL_INLINE Dv widen(Fv x) { return (Dv)_mm256_cvtps_pd((__m128)x); }
VQ_KERNEL_INLINE Fv narrow(Dv x) { return (Fv)_mm256_cvtpd_ps((__m256d)x); }  // rounds to nearest
VQ_KERNEL_INLINE Iv truncate(Dv x) { return (Iv)_mm256_cvttpd_epi32((__m256d)x); }
VQ_KERNEL_INLINE Dv to_double(Iv x) { return (Dv)_mm256_cvtepi32_pd((__m128i)x); }
VQ_KERNEL_INLINE Lv widen_mask(Iv mask) { return (Lv)_mm256_cvtepi32_epi64((__m128i)mask); }
VQ_KERNEL_INLINE Dv sqrt(Dv x) { return (Dv)_mm256_sqrt_pd((__m256d)x); }

#else

VQ_KERNEL_INLINE Dv widen(Fv x) { return __builtin_convertvector(x, Dv); }
VQ_KERNEL_INLINE Fv narrow(Dv x) { return __builtin_convertvector(x, Fv); }  // rounds to nearest
VQ_KERNEL_INLINE Iv truncate(Dv x) { return __builtin_convertvector(x, Iv); }
VQ_KERNEL_INLINE Dv to_double(Iv x) { return __builtin_convertvector(x, Dv); }
VQ_KERNEL_INLINE Lv widen_mask(Iv mask) { return __builtin_convertvector(mask, Lv); }
VQ_KERNEL_INLINE Dv sqrt(Dv x) {
#if defined(__SSE2__)
    return (Dv)_mm_sqrt_pd((__m128d)x);
#else
    for (int k = 0; k < lanes; ++k) x[k] = __builtin_sqrt(x[k]);
    return x;
#endif
}

#endif

VQ_KERNEL_INLINE Iv narrow_mask(Lv mask) { return __builtin_convertvector(mask, Iv); }

VQ_KERNEL_INLINE Dv abs(Dv x) { return (Dv)((Lv)x & 0x7fffffffffffffff); }
VQ_KERNEL_INLINE Fv abs(Fv x) { return (Fv)((Iv)x & 0x7fffffff); }
VQ_KERNEL_INLINE Dv max(Dv a, Dv b) { return a > b ? a : b; }
VQ_KERNEL_INLINE Dv min(Dv a, Dv b) { return a < b ? a : b; }

VQ_KERNEL_INLINE bool all(Lv mask) {
    std::int64_t every = -1;
    for (int k = 0; k < lanes; ++k) every &= mask[k];
    return every != 0;
}

// Table look-up per lane.
VQ_KERNEL_INLINE Dv gather(const double* table, Iv index) {
#if VQ_SIMD_BITS == 256
    // The masked form: the plain one leaves its pass-through operand undefined, which GCC 12
    // reports as possibly uninitialised.
    return (Dv)_mm256_mask_i32gather_pd(_mm256_setzero_pd(), table, (__m128i)index,
                                        _mm256_castsi256_pd(_mm256_set1_epi64x(-1)), 8);
#else
    Dv v;
    for (int k = 0; k < lanes; ++k) v[k] = table[index[k]];
    return v;
#endif
}

VQ_KERNEL_INLINE Fv load(const float* p) {
    Fv v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

VQ_KERNEL_INLINE void store(float* p, Fv v) { __builtin_memcpy(p, &v, sizeof v); }
