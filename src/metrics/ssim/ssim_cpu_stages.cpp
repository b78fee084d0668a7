// The stages of spec §3, §5-§7. The arithmetic of every output element is in the variant table's
// kernels; this file arranges the rows they read.
#include "metrics/ssim/ssim_cpu_stages.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "metrics/ssim/ssim_math.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim {

template <typename Sample>
void convert_luma(const PlaneView<Sample>& luma, int bit_depth, FloatPlane& out) {
    out.resize(luma.width, luma.height);
    // The divisor is a power of two: multiplying by its reciprocal is the same exact quotient.
    const float reciprocal = 1.0f / luma_divisor(bit_depth);
    for (int y = 0; y < luma.height; ++y) {
        const Sample* in = luma.row(y);
        float* row = out.row(y);
        for (int x = 0; x < luma.width; ++x) row[x] = float(in[x]) * reciprocal;
    }
}

template void convert_luma(const PlaneView<std::uint8_t>&, int, FloatPlane&);
template void convert_luma(const PlaneView<std::uint16_t>&, int, FloatPlane&);

namespace {

// phased[j] = source[stride * j] * reciprocal for j in [first, end): with the stride a constant,
// GCC turns the strided reads into vector loads and permutes.
template <int Stride, typename Sample>
void copy_strided(const Sample* source, float reciprocal, int first, int end, float* phased) {
    for (int j = first; j < end; ++j) phased[j] = float(source[Stride * j]) * reciprocal;
}

template <typename Sample>
void copy_strided(const Sample* source, int stride, float reciprocal, int first, int end,
                  float* phased) {
    switch (stride) {
    case 2: return copy_strided<2>(source, reciprocal, first, end, phased);
    case 3: return copy_strided<3>(source, reciprocal, first, end, phased);
    case 4: return copy_strided<4>(source, reciprocal, first, end, phased);
    default:
        for (int j = first; j < end; ++j) phased[j] = float(source[stride * j]) * reciprocal;
    }
}

// One source row split by column phase: phase p holds the row's mirrored column f*j + p - a at j,
// each sample converted as spec §3 does (times the exact reciprocal of a power of two).
template <typename Sample>
void phase_row(const Sample* source, int width, float reciprocal, int factor, int a,
               int phase_length, float* phased) {
    for (int p = 0; p < factor; ++p, phased += phase_length) {
        const int offset = p - a;
        // Columns inside the row, [first, end), need no mirror: a plain strided copy.
        const int first = std::min(phase_length, std::max(0, (factor - 1 - offset) / factor));
        const int end = std::clamp((width - offset + factor - 1) / factor, first, phase_length);
        for (int j = 0; j < first; ++j)
            phased[j] = float(source[half_sample_mirror(factor * j + offset, width)]) * reciprocal;
        copy_strided(source + offset, factor, reciprocal, first, end, phased);
        for (int j = end; j < phase_length; ++j)
            phased[j] = float(source[half_sample_mirror(factor * j + offset, width)]) * reciprocal;
    }
}

}  // namespace

// Output x reads input column f*x + k - a for tap k (a = n/2). With each mirrored source row split
// by column phase, that column is phase k mod f at x + k div f: every tap of a row of outputs is
// one contiguous run, which the kernels read as a vector. A window of n source rows spans at most
// n consecutive rows, so a ring of n phased rows (row r in slot r mod n) phases each row once.
template <typename Sample>
void decimate(const PlaneView<Sample>& in, float reciprocal, int factor,
              std::span<const float> kernel, int n, const Kernels& kernels, Scratch& scratch,
              FloatPlane& out) {
    const int a = n / 2;
    out.resize(decimated_size(in.width, factor), decimated_size(in.height, factor));
    const int phase_length = out.width + (n - 1) / factor;
    const std::size_t row_length = std::size_t(factor) * std::size_t(phase_length);
    scratch.phases.resize(row_length * std::size_t(n));
    std::vector<int> slot_row(std::size_t(n), -1);
    auto phased = [&](int row) {
        float* slot = scratch.phases.data() + row_length * std::size_t(row % n);
        if (slot_row[row % n] != row) {
            phase_row(in.row(row), in.width, reciprocal, factor, a, phase_length, slot);
            slot_row[row % n] = row;
        }
        return slot;
    };
    std::vector<const float*> sources(std::size_t(n) * std::size_t(n));
    for (int y = 0; y < out.height; ++y) {
        for (int v = 0; v < n; ++v) {
            const float* row = phased(half_sample_mirror(factor * y + v - a, in.height));
            for (int k = 0; k < n; ++k)
                sources[std::size_t(v) * n + k] =
                    row + std::size_t(k % factor) * phase_length + k / factor;
        }
        kernels.weighted_sum_row(sources.data(), kernel.data(), n * n, out.width, out.row(y));
    }
}

template void decimate(const PlaneView<std::uint8_t>&, float, int, std::span<const float>, int,
                       const Kernels&, Scratch&, FloatPlane&);
template void decimate(const PlaneView<std::uint16_t>&, float, int, std::span<const float>, int,
                       const Kernels&, Scratch&, FloatPlane&);
template void decimate(const PlaneView<float>&, float, int, std::span<const float>, int,
                       const Kernels&, Scratch&, FloatPlane&);

std::vector<float> box_kernel(int factor) {
    return std::vector<float>(std::size_t(factor) * std::size_t(factor),
                              1.0f / float(factor * factor));
}

// The blur of §5 streams: each input row's horizontal pass goes into a ring of the last 11 rows,
// from which each output row's vertical pass reads, and the terms of that row are summed at once.
Means statistics(const FloatPlane& ref, const FloatPlane& dist, const Kernels& kernels,
                 Scratch& scratch) {
    constexpr int moments = 5;  // R, D, R*R, D*D, R*D
    const int width = ref.width;
    const int valid_width = width - (window - 1);
    const int valid_height = ref.height - (window - 1);
    const std::size_t valid = std::size_t(valid_width);
    scratch.products.resize(3 * std::size_t(width));
    scratch.ring.resize(window * moments * valid);
    scratch.blurred.resize(moments * valid);
    auto ring_row = [&](int y, int moment) {
        return scratch.ring.data() + (std::size_t(y % window) * moments + moment) * valid;
    };

    auto horizontal = [&](int y) {
        const float* r = ref.row(y);
        const float* d = dist.row(y);
        float* rr = scratch.products.data();
        float* dd = rr + width;
        float* rd = dd + width;
        for (int x = 0; x < width; ++x) {
            rr[x] = r[x] * r[x];
            dd[x] = d[x] * d[x];
            rd[x] = r[x] * d[x];
        }
        const std::array<const float*, moments> rows = {r, d, rr, dd, rd};
        for (int m = 0; m < moments; ++m) {
            std::array<const float*, window> sources;
            for (int t = 0; t < window; ++t) sources[t] = rows[m] + t;
            kernels.weighted_sum_row(sources.data(), gaussian.data(), window, valid_width,
                                     ring_row(y, m));
        }
    };

    for (int y = 0; y < window - 1; ++y) horizontal(y);
    Sums sums;
    for (int y = 0; y < valid_height; ++y) {
        horizontal(y + window - 1);
        for (int m = 0; m < moments; ++m) {
            std::array<const float*, window> sources;
            for (int t = 0; t < window; ++t) sources[t] = ring_row(y + t, m);
            kernels.weighted_sum_row(sources.data(), gaussian.data(), window, valid_width,
                                     scratch.blurred.data() + m * valid);
        }
        const float* b = scratch.blurred.data();
        kernels.accumulate_terms_row({b, b + valid, b + 2 * valid, b + 3 * valid, b + 4 * valid},
                                     valid_width, sums);
    }
    // Spec §6.4: the count is a 32-bit product, as the reference forms it.
    const double count = double(std::int32_t(valid_width) * std::int32_t(valid_height));
    return {float(sums.ssim / count), float(sums.l / count), float(sums.c / count),
            float(sums.s / count)};
}

}  // namespace vq::ssim
