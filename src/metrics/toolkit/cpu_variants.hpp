// Compiles a metric's row kernels once per instruction set and lists the results best first: the
// variant table every CPU twin with vector loops uses (docs/architecture.md, "Adding a metric").
//
// A metric's NAME_cpu_kernels.cpp includes the headers its rows need, then this file, after
// defining:
//   VQ_VARIANT_NAMESPACE    the metric's namespace, e.g. vq::motion
//   VQ_VARIANT_SOURCE       "metrics/NAME/NAME_cpu_variant.hpp": the rows, ending with
//                           `constexpr Kernels kernels{VQ_VARIANT_NAME, row_a, row_b, ...};`
//   VQ_VARIANT_WIDEST_BITS  256 when the rows are written up to AVX2, 512 up to AVX-512
// and, where the rows use the AVX-512 16-bit dot product (vpdpwssd), also
//   VQ_VARIANT_WITH_VNNI    1: adds the "avx512vnni" variant, AVX-512 plus VNNI
// and gets `std::span<const Kernels> available_kernels()` in that namespace: every variant this
// processor runs, best first, "baseline" last.
//
// The source is included once per variant inside namespace baseline / avx2 / avx512 (so it has
// no include guard and includes nothing itself), with VQ_VARIANT_NAME the variant's name,
// VQ_SIMD_BITS its vector width: 0 (baseline: plain loops the compiler may vectorise for the
// build's target), 256 (AVX2) or 512 (AVX-512), and VQ_SIMD_VNNI 1 in the "avx512vnni" variant,
// 0 in the others. Vector helpers the rows call are VQ_KERNEL_INLINE,
// so each variant inlines its own copy compiled for its instruction set.
//
// This file is included once per .cpp and has no include guard.

#include <span>
#include <vector>

#include "core/cpu_isa.hpp"

// SSE2 is part of x86-64's baseline: baseline rows may use its intrinsics.
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// GCC's target pragma compiles a region for another instruction set (Clang lacks it). It does not
// define __AVX2__ and the like for C++, hence VQ_SIMD_BITS.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_X86_VARIANTS 1
#else
#define VQ_X86_VARIANTS 0
#endif

// Out of line, GCC passes vectors through memory and compiles the helper for the baseline.
#define VQ_KERNEL_INLINE [[gnu::always_inline]] inline

#ifndef VQ_VARIANT_WITH_VNNI
#define VQ_VARIANT_WITH_VNNI 0
#endif
#define VQ_SIMD_VNNI 0

namespace VQ_VARIANT_NAMESPACE {
namespace {

#define VQ_SIMD_BITS 0
#define VQ_VARIANT_NAME "baseline"
namespace baseline {
#include VQ_VARIANT_SOURCE
}  // namespace baseline
#undef VQ_VARIANT_NAME
#undef VQ_SIMD_BITS

#if VQ_X86_VARIANTS
// core/cpu_isa.hpp's cpu_runs_avx2() and cpu_runs_avx512() check exactly these extensions.
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,lzcnt,popcnt")
#define VQ_SIMD_BITS 256
#define VQ_VARIANT_NAME "avx2"
namespace avx2 {
#include VQ_VARIANT_SOURCE
}  // namespace avx2
#undef VQ_VARIANT_NAME
#undef VQ_SIMD_BITS
#pragma GCC pop_options

#if VQ_VARIANT_WIDEST_BITS >= 512
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt")
// GCC 12's AVX-512 intrinsics start from an undefined vector, which it then reports as
// (possibly) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define VQ_SIMD_BITS 512
#define VQ_VARIANT_NAME "avx512"
namespace avx512 {
#include VQ_VARIANT_SOURCE
}  // namespace avx512
#undef VQ_VARIANT_NAME
#undef VQ_SIMD_BITS
#pragma GCC diagnostic pop
#pragma GCC pop_options

#if VQ_VARIANT_WITH_VNNI
#pragma GCC push_options
#pragma GCC target( \
    "avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx512vnni,avx2,bmi,bmi2,lzcnt,popcnt")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#undef VQ_SIMD_VNNI
#define VQ_SIMD_VNNI 1
#define VQ_SIMD_BITS 512
#define VQ_VARIANT_NAME "avx512vnni"
namespace avx512vnni {
#include VQ_VARIANT_SOURCE
}  // namespace avx512vnni
#undef VQ_VARIANT_NAME
#undef VQ_SIMD_BITS
#undef VQ_SIMD_VNNI
#define VQ_SIMD_VNNI 0
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif
#endif
#endif

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_X86_VARIANTS
#if VQ_VARIANT_WIDEST_BITS >= 512
#if VQ_VARIANT_WITH_VNNI
        if (cpu_runs_avx512vnni()) found.push_back(avx512vnni::kernels);
#endif
        if (cpu_runs_avx512()) found.push_back(avx512::kernels);
#endif
        if (cpu_runs_avx2()) found.push_back(avx2::kernels);
#endif
        found.push_back(baseline::kernels);
        return found;
    }();
    return variants;
}

}  // namespace VQ_VARIANT_NAMESPACE

#undef VQ_KERNEL_INLINE
#undef VQ_X86_VARIANTS
#undef VQ_SIMD_VNNI
#undef VQ_VARIANT_WITH_VNNI
