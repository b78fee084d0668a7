// The variant table: the plain stages, and the vector stages of vif_cpu_simd.hpp compiled for AVX2
// and for AVX-512 on x86-64 with GCC, chosen at run time by what the CPU supports.
#include "metrics/vif/vif_cpu_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/vif/vif_cpu_stages.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_VIF_X86 1
#include <immintrin.h>
#else
#define VQ_VIF_X86 0
#endif

namespace vq::vif {

#if VQ_VIF_X86
// Every vector helper is forced inline: out of line, GCC passes the vectors through memory.
#define VQ_VIF_INLINE [[gnu::always_inline]] inline

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#pragma GCC push_options
#pragma GCC target("avx2")
#define VQ_VIF_VECTOR_BYTES 32
namespace {
namespace avx2 {
#include "metrics/vif/vif_cpu_simd.hpp"
}  // namespace avx2
}  // namespace
#undef VQ_VIF_VECTOR_BYTES
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl")
// GCC 12's AVX-512 intrinsics start from an undefined vector, which it then reports as
// (possibly) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define VQ_VIF_VECTOR_BYTES 64
namespace {
namespace avx512 {
#include "metrics/vif/vif_cpu_simd.hpp"
}  // namespace avx512
}  // namespace
#undef VQ_VIF_VECTOR_BYTES
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

namespace {

void plain_fixed_log2(const double* values, std::int64_t* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = fixed_log2(std::uint64_t(values[i]));
}

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_VIF_X86
        if (cpu_runs_avx512())
            found.push_back({"avx512", avx512::statistics_any_scale<std::uint8_t>,
                             avx512::statistics_any_scale<std::uint16_t>,
                             avx512::decimate_any_scale<std::uint8_t>,
                             avx512::decimate_any_scale<std::uint16_t>, avx512::fixed_log2_of});
        if (cpu_runs_avx2())
            found.push_back({"avx2", avx2::statistics_any_scale<std::uint8_t>,
                             avx2::statistics_any_scale<std::uint16_t>,
                             avx2::decimate_any_scale<std::uint8_t>,
                             avx2::decimate_any_scale<std::uint16_t>, avx2::fixed_log2_of});
#endif
        found.push_back({"plain", scale_statistics<std::uint8_t>, scale_statistics<std::uint16_t>,
                         decimate<std::uint8_t>, decimate<std::uint16_t>, plain_fixed_log2});
        return found;
    }();
    return variants;
}

}  // namespace vq::vif
