// The stages both features are made of (spec §3, §5-§7), on float planes, with the hot loops
// taken from a variant table so the tests can run each variant through whole stages.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "metrics/ssim/ssim.hpp"
#include "metrics/ssim/ssim_cpu_kernels.hpp"
#include "vq/picture.hpp"

namespace vq::ssim {

// A float plane, rows tightly packed.
struct FloatPlane {
    int width = 0;
    int height = 0;
    std::vector<float> samples;

    void resize(int w, int h) {
        width = w;
        height = h;
        samples.resize(std::size_t(w) * std::size_t(h));
    }
    float* row(int y) { return samples.data() + std::size_t(y) * std::size_t(width); }
    PlaneView<float> view() const { return {samples.data(), width, height, width}; }
    const float* row(int y) const { return samples.data() + std::size_t(y) * std::size_t(width); }
};

// Spec §3: the luma samples brought to the 8-bit range, exactly.
template <typename Sample>
void convert_luma(const PlaneView<Sample>& luma, int bit_depth, FloatPlane& out);

// Buffers the stages reuse from frame to frame (one set per thread).
struct Scratch {
    std::vector<float> phases;    // decimate(): the ring of source rows split by column phase
    std::vector<float> products;  // statistics(): one row of R*R, D*D, R*D
    std::vector<float> ring;      // statistics(): the last 11 rows of the horizontal pass
    std::vector<float> blurred;   // statistics(): one row of the five blurred moments
};

// Spec §7.1: `in` decimated by `factor` with the n x n kernel (row-major), into `out`. Samples are
// multiplied by `reciprocal` as they are read: 1 for a float plane, 1/luma_divisor() to decimate a
// picture's luma without converting it first (the same exact values as spec §3).
template <typename Sample>
void decimate(const PlaneView<Sample>& in, float reciprocal, int factor,
              std::span<const float> kernel, int n, const Kernels& kernels, Scratch& scratch,
              FloatPlane& out);

// Spec §7.3: the box kernel of float_ssim's factor f, f x f entries of 1/(f*f) in binary32.
std::vector<float> box_kernel(int factor);

// Spec §5-§6.4: the means of the SSIM terms over the valid region of two planes of the same size,
// at least 11 x 11 (the callers' size checks guarantee it).
Means statistics(const FloatPlane& ref, const FloatPlane& dist, const Kernels& kernels,
                 Scratch& scratch);

}  // namespace vq::ssim
