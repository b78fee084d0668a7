// SSIM and MS-SSIM, CUDA twin: the launches of the device stages (spec §3, §5-§7 in
// ssim_cuda_planes.cu; the ordered sums of §6.3-§6.4 in ssim_cuda_sums.cu). Each launch checks
// itself; nothing here waits for the host.
#pragma once

#include <cuda_runtime.h>

#include "metrics/ssim/ssim.hpp"
#include "metrics/toolkit/ordered_sum.hpp"

namespace vq::ssim::gpu {

// The per-position terms of one scale's valid region (spec §6.2), row-major, count positions:
// l and c in double, s in float (what it is before widening).
struct TermPlanes {
    double* l;
    double* c;
    float* s;
    long long count;
};

// One scale's ordered sums: its terms and the scratch of ordered_sum.hpp's levels, four
// streams (ssim, l, c, s) each, and where the four means go (a Means in the device block).
struct SumScale {
    TermPlanes terms;
    int valid_width;
    int valid_height;
    double* approximate;    // [4][chunks]: each chunk's sum in any order (see terms())
    double* prefix;         // [4][chunks]: the approximate running sum before each chunk
    ordered::Grid* chunks;  // [4][chunks]
    ordered::Grid* groups;  // [4][groups]
    ordered::Grid* supers;  // [4][supers]
    Means* means;
};

struct SumJob {
    SumScale scales[ms_ssim_scales];
    int scale_count;
};

inline constexpr int sum_streams = 4;  // (l*c)*s, l, c, s: Means' field order

// Sets the device's tables (Gaussian taps, MS-SSIM kernel); once per feature, on `stream`.
void upload_tables(cudaStream_t stream);

// Spec §7.1 with float_ssim's box of `factor` (§7.3) on a picture's luma, each sample times
// `reciprocal` as it is read (spec §3); out is decimated_size() of each side.
template <typename Sample>
void box_decimate(const Sample* luma, int width, int height, float reciprocal, int factor,
                  float* out, cudaStream_t stream);

// Spec §7.2: one 2:1 step of the MS-SSIM pyramid with the 9x9 kernel, each sample times
// `reciprocal` as it is read (the luma's spec §3 at scale 0; 1, exactly, on float planes).
template <typename Sample>
void pyramid_decimate(const Sample* in, float reciprocal, int width, int height, float* out,
                      cudaStream_t stream);

// Spec §5-§6.2: the terms of two width x height planes (at least 11 x 11; each sample times
// `reciprocal` as it is read), each also added (in any order) into its chunk's sum in
// `chunk_sums` (SumScale::approximate: [4][chunks], zero on entry; sums() reads it and leaves it
// zero again). Samples are the luma's (scale 0) or floats.
template <typename Sample>
void terms(const Sample* ref, const Sample* dist, float reciprocal, int width, int height,
           const TermPlanes& out, double* chunk_sums, cudaStream_t stream);

// Spec §6.3-§6.4: each scale's four sums in the CPU twin's order and bits, and their means; after
// terms() for every scale.
void sums(const SumJob& job, cudaStream_t stream);

}  // namespace vq::ssim::gpu
