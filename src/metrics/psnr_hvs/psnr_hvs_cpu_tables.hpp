// PSNR-HVS's constants (spec/psnr_hvs.md §6): the contrast-sensitivity tables, the masking
// weights derived from them, and the variance scale factors.
#pragma once

#include <array>

namespace vq::psnr_hvs {

// One plane's tables, indexed [u * 8 + v] (u the vertical frequency, v the horizontal).
struct PlaneTables {
    std::array<float, 64> csf;          // CSF_p (§6.1)
    std::array<float, 64> mask_weight;  // W_p (§6.2)
};

// Plane 0 is Y, 1 Cb, 2 Cr; both chroma tables apply whatever the subsampling (§3).
const PlaneTables& plane_tables(int plane);

// §6.3: f32(1/63) ⊗ 64 and f32(1/15) ⊗ 16, as the reference forms them. (The spec warns that
// they differ from f32(64/63) and f32(16/15); they do not, as the tests check.)
inline constexpr float k63 = float(1.0 / 63) * 64.0f;
inline constexpr float k15 = float(1.0 / 15) * 16.0f;

}  // namespace vq::psnr_hvs
