// The contrast-sensitivity factors of spec §7: float factors per scale and orientation, and
// the integer multipliers derived from them (§7.4).
#pragma once

#include <array>
#include <cstdint>

namespace vq::adm {

struct CsfCondition {
    int mode = 0;                 // 0 Watson-97, 1 Barten, 2 blend table, 3 blend "MAE" table
    double view_distance = 3.0;   // nvd
    int display_height = 1080;    // rdh
    double csf_scale = 1.0;       // Barten: h and v
    double csf_diag_scale = 1.0;  // Barten: d
};

// f_hv (h and v bands) and f_d per scale.
struct CsfFactors {
    std::array<float, 4> hv{}, d{};
};

// Per scale, per band (h, v, d): the uint16 multipliers of scale 0 (stored widened) and the
// uint32 multipliers of scales 1-3.
struct CsfMultipliers {
    std::array<std::array<std::uint32_t, 3>, 4> band{};
};

CsfFactors csf_factors(const CsfCondition& condition);
CsfMultipliers csf_multipliers(const CsfFactors& factors, const CsfCondition& condition);

// Mode 1 alone, exposed for its check values (spec §7.3).
float barten_factor(double view_distance, int display_height, int scale, double csf_scale);

}  // namespace vq::adm
