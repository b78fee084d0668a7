// Four-lane vectors for the CPU twin's ΔE00 kernel: GCC/Clang vector extensions, whose
// arithmetic is plain IEEE arithmetic lane by lane (float ops stay float, double ops double, and
// -ffp-contract=off keeps them unfused), plus conversions and a square root, which the
// extensions lack or compile poorly, written with the instruction set's intrinsics.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, by ciede_delta_e_row.cpp: deliberately
// no include guard, and no #include here (the includer provides <immintrin.h>, <cstdint>).
// VQ_CIEDE_SIMD_AVX2 selects 256-bit instructions; the includer compiles that copy for AVX2.

inline constexpr int lanes = 4;

using Fv = float __attribute__((vector_size(16)));
using Dv = double __attribute__((vector_size(32)));
using Iv = std::int32_t __attribute__((vector_size(16)));  // lane masks of Fv, and small ints
using Lv = std::int64_t __attribute__((vector_size(32)));  // lane masks of Dv

#if VQ_CIEDE_SIMD_AVX2

inline Dv widen(Fv x) { return (Dv)_mm256_cvtps_pd((__m128)x); }
inline Fv narrow(Dv x) { return (Fv)_mm256_cvtpd_ps((__m256d)x); }  // rounds to nearest
inline Iv truncate(Dv x) { return (Iv)_mm256_cvttpd_epi32((__m256d)x); }
inline Dv to_double(Iv x) { return (Dv)_mm256_cvtepi32_pd((__m128i)x); }
inline Lv widen(Iv mask) { return (Lv)_mm256_cvtepi32_epi64((__m128i)mask); }
inline Dv sqrt(Dv x) { return (Dv)_mm256_sqrt_pd((__m256d)x); }

#elif defined(__SSE2__)

inline Dv join(__m128d low, __m128d high) { return Dv{low[0], low[1], high[0], high[1]}; }
inline __m128d low_half(Dv x) { return _mm_setr_pd(x[0], x[1]); }
inline __m128d high_half(Dv x) { return _mm_setr_pd(x[2], x[3]); }

inline Dv widen(Fv x) {
    return join(_mm_cvtps_pd((__m128)x), _mm_cvtps_pd(_mm_movehl_ps((__m128)x, (__m128)x)));
}
inline Fv narrow(Dv x) {
    return (Fv)_mm_movelh_ps(_mm_cvtpd_ps(low_half(x)), _mm_cvtpd_ps(high_half(x)));
}
inline Iv truncate(Dv x) {
    return (Iv)_mm_unpacklo_epi64(_mm_cvttpd_epi32(low_half(x)), _mm_cvttpd_epi32(high_half(x)));
}
inline Dv to_double(Iv x) { return __builtin_convertvector(x, Dv); }
inline Lv widen(Iv mask) { return __builtin_convertvector(mask, Lv); }
inline Dv sqrt(Dv x) { return join(_mm_sqrt_pd(low_half(x)), _mm_sqrt_pd(high_half(x))); }

#else

inline Dv widen(Fv x) { return __builtin_convertvector(x, Dv); }
inline Fv narrow(Dv x) { return __builtin_convertvector(x, Fv); }
inline Iv truncate(Dv x) { return __builtin_convertvector(x, Iv); }
inline Dv to_double(Iv x) { return __builtin_convertvector(x, Dv); }
inline Lv widen(Iv mask) { return __builtin_convertvector(mask, Lv); }
inline Dv sqrt(Dv x) {
    return Dv{__builtin_sqrt(x[0]), __builtin_sqrt(x[1]), __builtin_sqrt(x[2]),
              __builtin_sqrt(x[3])};
}

#endif

inline Iv narrow(Lv mask) { return __builtin_convertvector(mask, Iv); }

inline Dv abs(Dv x) { return (Dv)((Lv)x & 0x7fffffffffffffff); }
inline Fv abs(Fv x) { return (Fv)((Iv)x & 0x7fffffff); }
inline Dv max(Dv a, Dv b) { return a > b ? a : b; }
inline Dv min(Dv a, Dv b) { return a < b ? a : b; }

inline bool all(Lv mask) { return (mask[0] & mask[1] & mask[2] & mask[3]) != 0; }

inline Fv load(const float* p) {
    Fv v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

inline void store(float* p, Fv v) { __builtin_memcpy(p, &v, sizeof v); }
