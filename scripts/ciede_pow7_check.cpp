// Exhaustive check of vq::ciede::glibc_powf_7 (src/metrics/ciede/ciede_math.hpp) against the C
// library's powf(x, 7.0f) on all 2^32 float bit patterns: the CPU twin and the CUDA twin both use
// that function where the reference calls glibc's powf (spec/ciede.md §4.6 row 18, R_T).
//
// Build and run (one core, about two minutes):
//   g++ -std=c++20 -O2 -ffp-contract=off -I src scripts/ciede_pow7_check.cpp -o /tmp/pow7_check
//   /tmp/pow7_check
// It prints the number of mismatches (both NaN counts as a match) and exits 1 if there are any.
// For comparison it also counts, over the floats of [0, 1024) (C̄' stays far below 1024), how
// often the double pow rounded to float (the device's former substitute) differs from powf.
// glibc's x86-64 powf has two builds, picked at load time; the generic one (processors without
// FMA) can be forced with GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "metrics/ciede/ciede_math.hpp"

namespace {

bool same(float a, float b) {
    return std::isnan(a) ? std::isnan(b)
                         : std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

}  // namespace

int main() {
    volatile float seven = 7.0f;  // keeps the compiler from evaluating or rewriting powf
    const float exponent = seven;
    std::uint64_t mismatches = 0, former_differs = 0, former_count = 0;
    const std::uint32_t domain_end = std::bit_cast<std::uint32_t>(1024.0f);
    for (std::uint64_t bits = 0; bits <= 0xffffffffu; ++bits) {
        const float x = std::bit_cast<float>(std::uint32_t(bits));
        const float expected = ::powf(x, exponent);
        const float actual = vq::ciede::glibc_powf_7(x);
        if (!same(expected, actual)) {
            if (mismatches < 20)
                std::printf("mismatch: x = %a (0x%08x): powf %a, glibc_powf_7 %a\n", double(x),
                            unsigned(bits), double(expected), double(actual));
            ++mismatches;
        }
        if (bits < domain_end) {
            ++former_count;
            former_differs += !same(expected, float(std::pow(double(x), 7.0)));
        }
    }
    std::printf(
        "glibc_powf_7 against powf(x, 7.0f), all 4294967296 float bit patterns: "
        "%llu mismatches\n",
        (unsigned long long)mismatches);
    std::printf(
        "float(pow(double(x), 7.0)) against powf(x, 7.0f), the %llu floats of [0, 1024): "
        "%llu differ (%.4f%%)\n",
        (unsigned long long)former_count, (unsigned long long)former_differs,
        100.0 * double(former_differs) / double(former_count));
    return mismatches == 0 ? 0 : 1;
}
