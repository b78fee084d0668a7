// The variant table: the scalar block math, and the vector row kernel of psnr_hvs_simd.hpp
// compiled for AVX2 and for AVX-512 on x86-64 with GCC, chosen at run time by what the CPU
// supports; and the plane accumulation every variant shares.
#include "metrics/psnr_hvs/psnr_hvs_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/psnr_hvs/psnr_hvs_scalar.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_PSNR_HVS_X86 1
#include <immintrin.h>
#else
#define VQ_PSNR_HVS_X86 0
#endif

namespace vq::psnr_hvs {

#if VQ_PSNR_HVS_X86
// Every vector helper is forced inline: out of line, GCC passes the vectors through memory.
#define VQ_PSNR_HVS_INLINE [[gnu::always_inline]] inline

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#pragma GCC push_options
#pragma GCC target("avx2")
#define VQ_PSNR_HVS_VECTOR_BYTES 32
namespace {
namespace avx2 {
#include "metrics/psnr_hvs/psnr_hvs_simd.hpp"
}  // namespace avx2
}  // namespace
#undef VQ_PSNR_HVS_VECTOR_BYTES
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl")
// GCC 12's AVX-512 intrinsics start from an undefined vector, which it then reports as
// (possibly) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define VQ_PSNR_HVS_VECTOR_BYTES 64
namespace {
namespace avx512 {
#include "metrics/psnr_hvs/psnr_hvs_simd.hpp"
}  // namespace avx512
}  // namespace
#undef VQ_PSNR_HVS_VECTOR_BYTES
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

namespace {

// One block at a time: the scalar block math as the spec writes it (lanes = 1).
template <typename Sample>
void scalar_row_terms(const PlaneView<Sample>& reference, const PlaneView<Sample>& distorted, int y,
                      const PlaneTables& tables, float* terms) {
    const int blocks = block_count(reference.width);
    for (int k = 0; k < blocks; ++k) {
        scalar::BlockSamples reference_samples, distorted_samples;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                reference_samples[r * 8 + c] = reference.at(y + r, k * block_step + c);
                distorted_samples[r * 8 + c] = distorted.at(y + r, k * block_step + c);
            }
        scalar::block_terms(reference_samples, distorted_samples, tables, terms + 64 * k);
    }
}

template <typename Sample>
float error_sum(const Kernels& kernels, const PlaneView<Sample>& reference,
                const PlaneView<Sample>& distorted, const PlaneTables& tables) {
    const int columns = block_count(reference.width), rows = block_count(reference.height);
    const int lanes = kernels.lanes;
    std::vector<float> terms(kernels.row_terms_size(columns));
    // One float for the whole plane, added to in the reference's order (§8): no partial sums.
    float sum = 0;
    for (int row = 0; row < rows; ++row) {
        kernels.row_terms(reference, distorted, row * block_step, tables, terms.data());
        for (int k = 0; k < columns; ++k) {
            const float* block = terms.data() + std::size_t(k / lanes) * 64 * lanes + k % lanes;
            for (int i = 0; i < 64; ++i) sum += block[i * lanes];
        }
    }
    return sum;
}

}  // namespace

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_PSNR_HVS_X86
        if (cpu_runs_avx512())
            found.push_back({"avx512", avx512::lanes, avx512::row_terms<std::uint8_t>,
                             avx512::row_terms<std::uint16_t>});
        if (cpu_runs_avx2())
            found.push_back({"avx2", avx2::lanes, avx2::row_terms<std::uint8_t>,
                             avx2::row_terms<std::uint16_t>});
#endif
        found.push_back(
            {"scalar", 1, scalar_row_terms<std::uint8_t>, scalar_row_terms<std::uint16_t>});
        return found;
    }();
    return variants;
}

float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint8_t>& reference,
                      const PlaneView<std::uint8_t>& distorted, const PlaneTables& tables) {
    return error_sum(kernels, reference, distorted, tables);
}

float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint16_t>& reference,
                      const PlaneView<std::uint16_t>& distorted, const PlaneTables& tables) {
    return error_sum(kernels, reference, distorted, tables);
}

}  // namespace vq::psnr_hvs
