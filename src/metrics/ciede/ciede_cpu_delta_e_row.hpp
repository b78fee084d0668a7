// ΔE00 of a row of colour pairs at once, through the vector kernel (ciede_cpu_delta_e_kernel.hpp):
// bit-identical to ciede::delta_e_2000 on every pair.
#pragma once

#include <span>

#include "metrics/ciede/ciede_cpu_kernels.hpp"

namespace vq::ciede {

class DeltaERow {
public:
    explicit DeltaERow(int capacity) : scratch_(capacity) {}

    // Where the colours of pair number `slot` (0 <= slot < capacity) go.
    LabTarget reference(int slot) {
        return {&scratch_.L1[slot], &scratch_.a1[slot], &scratch_.b1[slot]};
    }
    LabTarget distorted(int slot) {
        return {&scratch_.L2[slot], &scratch_.a2[slot], &scratch_.b2[slot]};
    }

    // ΔE00 of pairs 0 .. count-1, in slot order.
    std::span<const float> compute(int count) {
        kernels().delta_e(scratch_, count);
        return std::span<const float>(scratch_.delta_e).first(count);
    }

private:
    DeltaEScratch scratch_;
};

}  // namespace vq::ciede
