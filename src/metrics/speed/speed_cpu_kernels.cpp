// The variant table: the plain loops of speed_cpu_rows.hpp compiled for the baseline, for AVX2
// and for AVX-512 (x86-64, GCC), chosen at run time by what the CPU supports. Floating-point
// contraction is off everywhere, so the wider vectors change nothing but the speed.
#include "metrics/speed/speed_cpu_kernels.hpp"

#include <vector>

#include "core/cpu_isa.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_SPEED_X86 1
#else
#define VQ_SPEED_X86 0
#endif

namespace vq::speed {

namespace {
namespace plain {
#include "metrics/speed/speed_cpu_rows.hpp"
}  // namespace plain
}  // namespace

#if VQ_SPEED_X86
// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#pragma GCC push_options
#pragma GCC target("avx2")
namespace {
namespace avx2 {
#include "metrics/speed/speed_cpu_rows.hpp"
}  // namespace avx2
}  // namespace
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl")
// Ask for full-width vectors: GCC otherwise prefers 256-bit ones on AVX-512 targets.
#pragma GCC target("prefer-vector-width=512")
namespace {
namespace avx512 {
#include "metrics/speed/speed_cpu_rows.hpp"
}  // namespace avx512
}  // namespace
#pragma GCC pop_options
#endif

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_SPEED_X86
        if (cpu_runs_avx512())
            found.push_back(
                {"avx512", avx512::vertical_row, avx512::covariance_sums, avx512::matrix_product});
        if (cpu_runs_avx2())
            found.push_back(
                {"avx2", avx2::vertical_row, avx2::covariance_sums, avx2::matrix_product});
#endif
        found.push_back(
            {"plain", plain::vertical_row, plain::covariance_sums, plain::matrix_product});
        return found;
    }();
    return variants;
}

}  // namespace vq::speed
