// The variant table: the baseline loops over ssim_terms.hpp, and the vector loops of
// ssim_simd.hpp compiled for AVX2 and for AVX-512 on x86-64 with GCC, chosen at run time by what
// the CPU supports.
#include "metrics/ssim/ssim_kernels.hpp"

#include <cstring>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/ssim/ssim_terms.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_SSIM_X86 1
#include <immintrin.h>
#else
#define VQ_SSIM_X86 0
#endif

namespace vq::ssim {
namespace {

namespace baseline {

void weighted_sum_row(const float* const* sources, const float* weights, int taps, int width,
                      float* out) {
    for (int x = 0; x < width; ++x) out[x] = weighted_sum(sources, weights, taps, x);
}

void accumulate_terms_row(const MomentRows& rows, int width, Sums& sums) {
    for (int x = 0; x < width; ++x)
        accumulate(terms(rows.mu_r[x], rows.mu_d[x], rows.e_rr[x], rows.e_dd[x], rows.e_rd[x]),
                   sums);
}

}  // namespace baseline

#if VQ_SSIM_X86
// Every vector helper is forced inline: out of line, GCC passes the vectors through memory.
#define VQ_SSIM_INLINE [[gnu::always_inline]] inline

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,lzcnt,popcnt")
#define VQ_SSIM_VECTOR_BYTES 32
namespace avx2 {
#include "metrics/ssim/ssim_simd.hpp"
}  // namespace avx2
#undef VQ_SSIM_VECTOR_BYTES
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt")
// GCC 12's AVX-512 intrinsics start from an undefined vector, which it then reports as
// (possibly) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define VQ_SSIM_VECTOR_BYTES 64
namespace avx512 {
#include "metrics/ssim/ssim_simd.hpp"
}  // namespace avx512
#undef VQ_SSIM_VECTOR_BYTES
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

#define VQ_SSIM_KERNEL_TABLE(name) \
    Kernels { #name, name::weighted_sum_row, name::accumulate_terms_row }

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_SSIM_X86
        if (cpu_runs_avx512()) found.push_back(VQ_SSIM_KERNEL_TABLE(avx512));
        if (cpu_runs_avx2()) found.push_back(VQ_SSIM_KERNEL_TABLE(avx2));
#endif
        found.push_back(VQ_SSIM_KERNEL_TABLE(baseline));
        return found;
    }();
    return variants;
}

}  // namespace vq::ssim
