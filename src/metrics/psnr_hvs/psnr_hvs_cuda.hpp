// Internals of PSNR-HVS's CUDA twin shared by its .cu files: what one frame's planes are to the
// kernels, the reduction's scratch, and the launchers (psnr_hvs_cuda_terms.cu for the block work,
// psnr_hvs_cuda_sum.cu for the accumulator of spec §8).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "metrics/psnr_hvs/psnr_hvs_float_sum.hpp"

namespace vq::psnr_hvs::cuda_twin {

// One plane's tables as the device reads them (psnr_hvs_cpu_tables.hpp's values).
struct DeviceTables {
    float csf[64];
    float mask_weight[64];
};

// The reduction works on groups of 16 blocks' terms, i.e. 1024 terms in the serial order.
inline constexpr int group_blocks = 16;
inline constexpr int group_terms = 64 * group_blocks;

// A group's maps (psnr_hvs_float_sum.hpp) on the three grids the accumulator can be on when the
// group starts: first_grid, +1, +2. The accumulator of n terms >= 0 is within a factor
// (1 ± 2^-24)^n of their exact sum, so for n < 1.16e7 terms (a 4K 4:4:4 plane has 1.08e7) its
// binade is that of the exact prefix sum, ± 1: first_grid is that binade's grid - 1. A wrong
// guess (larger planes) costs time, never bits: the walker then builds the group's map itself.
inline constexpr int group_grids = 3;
struct GroupMaps {
    int first_grid;
    float_sum::Map maps[group_grids];
};

struct PlaneJob {
    const void* reference;  // the scored plane's first sample
    const void* distorted;
    int stride;               // samples per row of the stored plane
    int columns, rows;        // 8x8 blocks (spec §4)
    std::size_t term_count;   // 64 · columns · rows
    std::size_t group_count;  // ceil(term_count / group_terms)
    float* terms;             // term_count terms, in the reference's order
    double* group_sums;       // each group's terms summed in double: the binade estimate's input
    GroupMaps* groups;
    const DeviceTables* tables;
};

struct FrameJob {
    PlaneJob planes[3];
};

// Every block's 64 terms and every group's double sum, for each plane.
void enqueue_terms(const FrameJob& job, int bit_depth, cudaStream_t stream);

// The three accumulators, written to error_sums[0..2] (the result block's Block::error_sum).
void enqueue_sum(const FrameJob& job, float* error_sums, cudaStream_t stream);

}  // namespace vq::psnr_hvs::cuda_twin
