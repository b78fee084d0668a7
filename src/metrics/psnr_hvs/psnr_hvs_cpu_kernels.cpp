// The plane accumulation every variant shares, and the variant table: the scalar block math for
// the baseline and the vector row kernel of psnr_hvs_cpu_simd.hpp for AVX2 and AVX-512, chosen
// at run time.
#include "metrics/psnr_hvs/psnr_hvs_cpu_kernels.hpp"

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "metrics/psnr_hvs/psnr_hvs_cpu_scalar.hpp"

namespace vq::psnr_hvs {
namespace {

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

float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint8_t>& reference,
                      const PlaneView<std::uint8_t>& distorted, const PlaneTables& tables) {
    return error_sum(kernels, reference, distorted, tables);
}

float plane_error_sum(const Kernels& kernels, const PlaneView<std::uint16_t>& reference,
                      const PlaneView<std::uint16_t>& distorted, const PlaneTables& tables) {
    return error_sum(kernels, reference, distorted, tables);
}

}  // namespace vq::psnr_hvs

#define VQ_VARIANT_NAMESPACE vq::psnr_hvs
#define VQ_VARIANT_SOURCE "metrics/psnr_hvs/psnr_hvs_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#include "metrics/toolkit/cpu_variants.hpp"
