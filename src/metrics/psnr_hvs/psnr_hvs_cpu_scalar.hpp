// The block math of psnr_hvs_cpu_block_math.hpp on plain scalars: the baseline variant, and what
// the tests trace the spec's worked examples through.
#pragma once

#include <cmath>
#include <cstdint>

#include "metrics/psnr_hvs/psnr_hvs_cpu_tables.hpp"

namespace vq::psnr_hvs::scalar {

using I32 = std::int32_t;
using U32 = std::uint32_t;
using F32 = float;

inline F32 to_float(I32 value) { return float(value); }
inline F32 rounded_sqrt(F32 value) { return float(std::sqrt(double(value))); }

#include "metrics/psnr_hvs/psnr_hvs_cpu_block_math.hpp"

}  // namespace vq::psnr_hvs::scalar
