// ΔE00 of a whole row of colour pairs at once, for the CPU twin: bit-identical to
// ciede::delta_e_2000 on every pixel, several times faster.
//
// Two things make it fast. The row is processed stage by stage over arrays (structure of
// arrays), so the pixels of a row are independent iterations that the compiler vectorises and
// the core overlaps, instead of one long dependent chain of libm calls per pixel. And each
// libm-based quantity that the reference rounds to float is computed from the certified
// approximations of ciede_fast_math.hpp; the rare pixels whose rounding is not certain are
// recomputed with the reference's expression from ciede_math.hpp in a fix-up pass.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vq::ciede {

// One row of colours, as arrays.
struct LabRow {
    std::vector<float> L, a, b;

    explicit LabRow(int width = 0) : L(width), a(width), b(width) {}
};

// Scratch arrays for one row; reused from row to row to avoid allocations.
class DeltaERow {
public:
    explicit DeltaERow(int width);

    // out[i] = delta_e_2000(ref[i], dist[i]) for every pixel of the row.
    void compute(const LabRow& ref, const LabRow& dist, std::span<float> out);

private:
    void compensate_chroma(const LabRow& ref, const LabRow& dist);
    void hue_angles(const LabRow& ref, const LabRow& dist);
    void hue_terms();
    void rotation_terms();
    void combine(const LabRow& ref, const LabRow& dist, std::span<float> out);

    int width_;
    std::vector<float> c1_, c2_, a1p_, a2p_, c1p_, c2p_, h1_, h2_;
    std::vector<float> mean_cp_, mean_h_, delta_hp_, t_, r_t_, powf_;
    std::vector<std::uint8_t> uncertain_;
};

}  // namespace vq::ciede
