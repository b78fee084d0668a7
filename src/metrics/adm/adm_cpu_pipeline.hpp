// The CPU twin's frame computation: the four scales, each streamed row by row through DWT,
// decoupling, CSF, masking and the denominator, into the block's integer totals.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cpu_kernels.hpp"
#include "vq/picture.hpp"

namespace vq::adm {

// A row with room for the mirrored border: index -2 .. size + 1 is addressable.
template <typename T>
class PaddedRow {
public:
    void resize(int size) { storage_.assign(std::size_t(size) + 4, T{}); }
    T* get() { return storage_.data() + 2; }

private:
    std::vector<T> storage_;
};

// The row buffers of the scales whose bands are of type Coef (int16 at scale 0, int32 above).
template <typename Coef>
struct ScaleRows {
    PaddedRow<Coef> lo, hi;                   // the vertical pass's output, one input row wide
    std::array<PaddedRow<Coef>, 3> ref, dis;  // this row's h, v, d bands (o and t)
    PaddedRow<Coef> spare_a;                  // the A band of scale 3, which nothing reads
    // The three most recent rows of what masking reads (§9): restored R and additive A bands,
    // and the CSF maps (c, m) of A (the DLM masker) and of R (the AIM masker).
    struct Slot {
        std::array<PaddedRow<Coef>, 3> restored, additive, c_of_a, m_of_a, c_of_r, m_of_r;
    };
    std::array<Slot, 3> ring;
    PaddedRow<std::uint8_t> angle;
    PaddedRow<std::int32_t> thr;

    void resize(int input_width, int band_width);
};

// One thread's buffers, reused from frame to frame.
struct Workspace {
    // The A bands that feed the next scale, per image (0 ref, 1 dis).
    std::array<std::vector<std::int16_t>, 2> approximation0;
    std::array<std::vector<std::int32_t>, 2> approximation1, approximation2;
    ScaleRows<std::int16_t> narrow;
    ScaleRows<std::int32_t> wide;
    int width = 0, height = 0;  // the frame size the buffers are sized for
};

void compute_block(const Config& config, const Kernels& kernels, const Picture& reference,
                   const Picture& distorted, Workspace& workspace, Block& block);

}  // namespace vq::adm
