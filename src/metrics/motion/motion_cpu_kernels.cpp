// The row kernels compiled for the baseline instruction set and, on x86-64 with GCC, again for
// AVX2 and AVX-512, chosen at run time.
#include "metrics/motion/motion_cpu_kernels.hpp"

#include <cstdint>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/motion/motion.hpp"

namespace vq::motion {
namespace {

#define VQ_MOTION_KERNEL_TABLE(name) \
    Kernels { #name, name::vertical_row_8, name::vertical_row_16, name::horizontal_row_sad }

namespace baseline {
#include "metrics/motion/motion_cpu_rows.hpp"
}  // namespace baseline

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_MOTION_X86_VARIANTS 1
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,lzcnt,popcnt")
namespace avx2 {
#include "metrics/motion/motion_cpu_rows.hpp"
}  // namespace avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx512cd,avx2,bmi,bmi2,lzcnt,popcnt")
namespace avx512 {
#include "metrics/motion/motion_cpu_rows.hpp"
}  // namespace avx512
#pragma GCC pop_options
#else
#define VQ_MOTION_X86_VARIANTS 0
#endif

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_MOTION_X86_VARIANTS
        if (cpu_runs_avx512()) found.push_back(VQ_MOTION_KERNEL_TABLE(avx512));
        if (cpu_runs_avx2()) found.push_back(VQ_MOTION_KERNEL_TABLE(avx2));
#endif
        found.push_back(VQ_MOTION_KERNEL_TABLE(baseline));
        return found;
    }();
    return variants;
}

}  // namespace vq::motion
