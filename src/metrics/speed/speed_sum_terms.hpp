// The terms of SpEED's serial sums (spec/speed.md §8.1-§8.2) one by one, term i of a sum as the CPU
// twin adds it (speed_cpu_statistics.cpp): the readers the CUDA twin's ordered sums use
// (metrics/toolkit/ordered_sum.hpp), host and device code so that the host tests walk the very
// same terms against the CPU twin.
#pragma once

#include "cuda/host_device.hpp"
#include "metrics/speed/speed_stages.hpp"

namespace vq::speed {

inline constexpr int covariance_entries = block_samples * (block_samples + 1) / 2;  // b <= a

// Spec §8.1: term i of position p's mean, the sample i of the w_m x h_m sub-image that starts at
// (p / B, p % B), row-major; a float sum.
struct SubImageTerm {
    const float* z;  // the sub-image's first sample
    int stride;      // W_o: the residual image's row length
    int width;       // w_m

    // Where term i lies, from z.
    VQ_HD long offset(long long i) const {
        const int y = int(i) / width;  // w_m * h_m < 2^31: the size of one residual image
        return long(y) * stride + (int(i) - y * width);
    }
    VQ_HD float operator()(long long i) const { return z[offset(i)]; }
};

// `residual`: one W_o x H_o residual image.
VQ_HD inline SubImageTerm sub_image_term(const float* residual, int stride, int width, int p) {
    return {residual + (p / block_side) * stride + p % block_side, stride, width};
}

// Spec §8.2: term i of entry (a, b), (z_a - μ_a)(z_b - μ_b) with each factor a double difference
// of the float sample and the float mean; a double sum.
struct CovarianceTerm {
    SubImageTerm a;
    long b_from_a;  // z_b's samples lie this far from z_a's
    double mean_a, mean_b;

    VQ_HD double operator()(long long i) const {
        const float* za = a.z + a.offset(i);
        const double da = double(za[0]) - mean_a;
        const double db = double(za[b_from_a]) - mean_b;
        return da * db;
    }
};

// Entry e < covariance_entries is (a, b), b <= a, in the order (0,0), (1,0), (1,1), (2,0), ...
VQ_HD inline void covariance_entry(int e, int& a, int& b) {
    a = 0;
    while ((a + 1) * (a + 2) / 2 <= e) ++a;
    b = e - a * (a + 1) / 2;
}

// `means`: the image's 25 means (§8.1).
VQ_HD inline CovarianceTerm covariance_term(const float* residual, int stride, int width, int a,
                                            int b, const float* means) {
    const SubImageTerm za = sub_image_term(residual, stride, width, a);
    return {za, long(sub_image_term(residual, stride, width, b).z - za.z), double(means[a]),
            double(means[b])};
}

}  // namespace vq::speed
