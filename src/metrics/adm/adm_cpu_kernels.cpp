// The row kernels compiled for the baseline instruction set and, on x86-64 with GCC, again for
// AVX2 and AVX-512, chosen at run time.
#include "metrics/adm/adm_cpu_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/adm/adm_div_table.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace vq::adm {
namespace {

#define VQ_ADM_KERNEL_TABLE(name)                                                          \
    Kernels {                                                                              \
#name, name::dwt0_vertical < std::uint8_t>, name::dwt0_vertical < std::uint16_t>,  \
            name::dwt0_horizontal, name::dwt1_vertical, name::dwt23_vertical,              \
            name::dwt_wide_horizontal, name::decouple0, name::decouple_wide, name::csf0,   \
            name::csf_wide, name::threshold_row < std::int16_t>,                           \
            name::threshold_row < std::int32_t>, name::masked_row0, name::masked_row_wide, \
            name::cubed_row0, name::cubed_row_wide                                         \
    }

#define VQ_ADM_SIMD 0
namespace baseline {
#include "metrics/adm/adm_cpu_dwt_rows.hpp"
#include "metrics/adm/adm_cpu_decouple_rows.hpp"
#include "metrics/adm/adm_cpu_csf_rows.hpp"
#include "metrics/adm/adm_cpu_masking_rows.hpp"
#include "metrics/adm/adm_cpu_den_rows.hpp"
}  // namespace baseline

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_ADM_X86_VARIANTS 1
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,lzcnt,popcnt")
#undef VQ_ADM_SIMD
#define VQ_ADM_SIMD 256
namespace avx2 {
#include "metrics/adm/adm_cpu_dwt_rows.hpp"
#include "metrics/adm/adm_cpu_decouple_rows.hpp"
#include "metrics/adm/adm_cpu_csf_rows.hpp"
#include "metrics/adm/adm_cpu_masking_rows.hpp"
#include "metrics/adm/adm_cpu_den_rows.hpp"
}  // namespace avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt")
#undef VQ_ADM_SIMD
#define VQ_ADM_SIMD 512
namespace avx512 {
#include "metrics/adm/adm_cpu_dwt_rows.hpp"
#include "metrics/adm/adm_cpu_decouple_rows.hpp"
#include "metrics/adm/adm_cpu_csf_rows.hpp"
#include "metrics/adm/adm_cpu_masking_rows.hpp"
#include "metrics/adm/adm_cpu_den_rows.hpp"
}  // namespace avx512
#pragma GCC pop_options
#else
#define VQ_ADM_X86_VARIANTS 0
#endif

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_ADM_X86_VARIANTS
        if (cpu_runs_avx512()) found.push_back(VQ_ADM_KERNEL_TABLE(avx512));
        if (cpu_runs_avx2()) found.push_back(VQ_ADM_KERNEL_TABLE(avx2));
#endif
        found.push_back(VQ_ADM_KERNEL_TABLE(baseline));
        return found;
    }();
    return variants;
}

}  // namespace vq::adm
