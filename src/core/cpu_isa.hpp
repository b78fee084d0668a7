// Which of the instruction sets vq's CPU kernel variants are compiled for this processor runs.
// Each metric keeps its own variant table; this is the one place that says what "avx2",
// "avx512" and "avx512vnni" require.
#pragma once

namespace vq {

// AVX2 with the bit-manipulation extensions the "avx2,bmi,bmi2,lzcnt,popcnt" targets may use.
// LZCNT is not asked for: Clang's __builtin_cpu_supports does not know it, and every processor
// with AVX2 and BMI has it.
inline bool cpu_runs_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
    return false;
#endif
}

// The AVX-512 subset the variants are compiled for (F, BW, DQ, VL, CD), with AVX2 and its
// extensions.
inline bool cpu_runs_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
    return cpu_runs_avx2() && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd");
#else
    return false;
#endif
}

// The AVX-512 subset with the 16-bit dot product (VNNI): Intel from Cascade Lake, AMD from Zen 4.
inline bool cpu_runs_avx512vnni() {
#if defined(__x86_64__) && defined(__GNUC__)
    return cpu_runs_avx512() && __builtin_cpu_supports("avx512vnni");
#else
    return false;
#endif
}

}  // namespace vq
