// ΔE00 of a whole row of colour pairs at once, for the CPU twin: bit-identical to
// ciede::delta_e_2000 on every pixel and several times faster (ciede_delta_e_kernel.hpp says
// how). The kernel is compiled for AVX2 as well as for the baseline instruction set, and the
// constructor picks the best the CPU runs.
#pragma once

#include <span>
#include <vector>

#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {

// The kernel's arrays for one row, padded to a multiple of its four lanes (padding lanes hold
// colour (0, 0, 0) pairs, which are harmless to compute).
struct DeltaEScratch {
    explicit DeltaEScratch(int padded_width);

    std::vector<float> L1, a1, b1, L2, a2, b2;  // reference and distorted colours
    std::vector<float> c1, c2, a1p, a2p, c1p, c2p, mean_cp, h1, h2, delta_hp, mean_h, t, r_t;
    std::vector<float> delta_e;
};

class DeltaERow {
public:
    explicit DeltaERow(int width);

    void set(int column, const Lab& reference, const Lab& distorted) {
        scratch_.L1[column] = reference.L;
        scratch_.a1[column] = reference.a;
        scratch_.b1[column] = reference.b;
        scratch_.L2[column] = distorted.L;
        scratch_.a2[column] = distorted.a;
        scratch_.b2[column] = distorted.b;
    }

    // ΔE00 of every pair set, in column order.
    std::span<const float> compute();

private:
    int width_;
    int padded_width_;
    DeltaEScratch scratch_;
    void (*kernel_)(DeltaEScratch&, int);
};

}  // namespace vq::ciede
