// The float pipeline of one SpEED channel (spec/speed.md §3-§9), stage by stage, each in the
// spec's order of operations. The CPU twins chain them; the tests check each against the spec's
// worked example.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "metrics/speed/speed.hpp"
#include "metrics/speed/speed_cpu_kernels.hpp"
#include "vq/picture.hpp"

namespace vq::speed {

inline constexpr int block_side = 5;                           // spec §4: B
inline constexpr int block_samples = block_side * block_side;  // positions p per block
inline constexpr int decimation = 16;                          // spec §7: every 16th sample

struct FloatPlane {
    std::vector<float> samples;  // row-major, tightly packed
    int width = 0;
    int height = 0;

    FloatPlane() = default;
    FloatPlane(int w, int h) : samples(std::size_t(w) * std::size_t(h)), width(w), height(h) {}
    float* row(int y) { return samples.data() + std::ptrdiff_t(y) * width; }
    const float* row(int y) const { return samples.data() + std::ptrdiff_t(y) * width; }
    float at(int y, int x) const { return row(y)[x]; }
};

// A plane handed over row by row: row(y, out) writes row y's `width` floats. The blur of §7
// reads only the rows around every 16th, so only those are ever converted or resampled.
struct RowSource {
    int width = 0;
    int height = 0;
    std::function<void(int y, float* out)> row;
};

RowSource rows_of(const FloatPlane& plane);  // borrows the plane
FloatPlane materialise(const RowSource& source);

// Spec §3: plane `plane` of `picture` as floats centred on 0, at any depth 8..16 (borrows it).
RowSource centred_rows(const Picture& picture, int plane);
FloatPlane centred_plane(const Picture& picture, int plane);

// Spec §11: a ⊖ b per sample (same sizes).
RowSource difference_rows(RowSource a, RowSource b);

// Spec §5: `source` rescaled to width x height by `method` (borrows the source).
RowSource prescaled_rows(const FloatPlane& source, int width, int height, PrescaleMethod method);
FloatPlane prescaled(const FloatPlane& source, int width, int height, PrescaleMethod method);

// Spec §6: the normalised taps of a Gaussian of `size` taps (odd) and standard deviation `sigma`,
// and the two sizes a kernel scale gives.
std::vector<float> gaussian_taps(int size, float sigma);
int anti_alias_size(float kernel_scale);
int local_mean_size(float kernel_scale);
float anti_alias_sigma(int size);
float local_mean_sigma(int size);

// Spec §7: the decimated, local-mean-removed residual image r (W_o x H_o) of a scaled plane.
FloatPlane residual(const RowSource& scaled, const Config& config, const Kernels& kernels);

// Spec §8.3: the eigenvalues of a symmetric 25x25 matrix (row-major), in the QR output order.
// `sweeps`, if given, receives the number of QR sweeps.
using Matrix25 = std::array<float, block_samples * block_samples>;
std::array<float, block_samples> eigenvalues(const Matrix25& k, int* sweeps = nullptr);

// Spec §8.6: solves K X = Y for Y of 25 rows and `columns` columns (row-major), into x. False
// when back substitution meets a pivot below 1e-6.
bool solve(const Matrix25& k, const std::vector<float>& y, int columns, std::vector<float>& x,
           const Kernels& kernels);

// Spec §8: per-block entropies E_b and variances S_b of one residual image, and whether its
// covariance was singular or its solve failed.
struct ImageStatistics {
    std::vector<float> entropy;
    std::vector<float> variance;
    bool failed = false;
};

// Spec §8.1-§8.2, exposed for the tests: the 25 means and the covariance matrix of a residual.
struct Covariance {
    std::array<float, block_samples> means;
    Matrix25 k;
};
Covariance covariance(const FloatPlane& residual, const Kernels& kernels);

ImageStatistics image_statistics(const FloatPlane& residual, float sigma_nn,
                                 const Kernels& kernels);

// Spec §9: one channel's score from the two images' statistics, and "either image failed".
struct ChannelScore {
    float score;
    bool failed;
};
ChannelScore channel_score(const ImageStatistics& ref, const ImageStatistics& dist,
                           const Options& options);

// Spec §5-§9 on one channel's two converted planes (W_c x H_c).
ChannelScore score_channel(const RowSource& ref, const RowSource& dist, const Config& config,
                           const Kernels& kernels);

}  // namespace vq::speed
