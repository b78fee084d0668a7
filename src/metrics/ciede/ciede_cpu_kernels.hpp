// The CPU twin's vector kernels and the arrays they work on. Both are bit-identical to the
// scalar functions of ciede_math.hpp; ciede_cpu_kernels.cpp compiles them for AVX2 as well as for
// the baseline instruction set, and kernels() is the best the CPU runs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {

// Sizes are rounded up to this multiple so that every kernel loop covers whole vectors.
inline constexpr int kernel_lanes = 4;

inline constexpr int padded_size(int count) {
    return (count + kernel_lanes - 1) / kernel_lanes * kernel_lanes;
}

// A row of colour pairs and the ΔE00 kernel's intermediate quantities, one array each. Lanes
// past the pairs in use hold finite colours (zero, or left from earlier rows): harmless to
// compute.
struct DeltaEScratch {
    explicit DeltaEScratch(int capacity);

    std::vector<float> L1, a1, b1, L2, a2, b2;  // reference and distorted colours
    // The names of spec §4.6 (mean_cp_7 is powf(C̄', 7)).
    std::vector<float> c1, c2, a1p, a2p, c1p, c2p, mean_cp, mean_cp_7, h1, h2, delta_hp, mean_h;
    std::vector<float> t, r_t;
    std::vector<float> delta_e;
};

// Where a colour is to be stored: three float arrays' elements.
struct LabTarget {
    float* L;
    float* a;
    float* b;

    void store(const Lab& lab) const {
        *L = lab.L;
        *a = lab.a;
        *b = lab.b;
    }
};

// Code triples to convert to Lab, and the results.
struct LabBatch {
    explicit LabBatch(int capacity);

    std::vector<std::int32_t> y, cb, cr;
    std::vector<float> L, a, b;
};

struct Kernels {
    const char* instruction_set;
    // scratch.delta_e[i] = delta_e_2000(colour 1, colour 2) for i < count.
    void (*delta_e)(DeltaEScratch& scratch, int count);
    // batch.{L,a,b}[i] = ycbcr_to_lab(batch.{y,cb,cr}[i]) for i < count.
    void (*lab)(LabBatch& batch, int count, const CodeScale& scale);
};

// Every variant this CPU runs, best first (the tests compare each with the scalar functions).
std::span<const Kernels> available_kernels();

inline const Kernels& kernels() { return available_kernels().front(); }

}  // namespace vq::ciede
