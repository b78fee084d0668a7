// CAMBI, CUDA twin: the launch interface of each device stage (one .cu file per stage), shared by
// the pipeline that orders them (cambi_cuda_pipeline.cu). Every launch serves the distorted and,
// with full_ref, the reference picture at once, so a frame costs the same number of launches
// either way.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi::gpu {

inline constexpr int max_pictures = 2;  // distorted, reference (full_ref)
inline constexpr int max_planes = max_pictures * num_scales;

// The 10-bit values the c-value stage tracks: converted codes reach 1024 (§6.3), the values a
// c-value reads reach T_δ + δ ≤ 1023 + 32 (§10.1). Everything at or above is never counted.
inline constexpr int value_limit = 1152;
inline constexpr int value_words = value_limit / 32;

// In a counting plane, the value of a pixel outside the mask: never a value that is counted.
inline constexpr std::uint16_t unmasked = 0xffff;

// ---- §6.1–6.4: input check, resize, 10-bit conversion, anti-dither ----

struct ConvertJob {
    const void* luma = nullptr;  // input luma plane, input_width samples per row
    int input_width = 0;
    int input_height = 0;
    const int* column_map = nullptr;  // §6.2, null for the identity
    const int* row_map = nullptr;
    std::uint16_t* out = nullptr;  // width × height
    int width = 0;
    int height = 0;
};

struct ConvertParams {
    ConvertJob jobs[max_pictures];
    int pictures = 1;
    int bit_depth = 8;
    bool anti_dither = false;
};

void launch_convert(const ConvertParams& params, cudaStream_t stream);

// §6.1: atomicMax of every input luma sample into largest[picture] (which must start at 0).
void launch_largest_sample(const void* const luma[max_pictures], std::size_t samples, int pictures,
                           unsigned* largest, cudaStream_t stream);

// ---- §7: spatial mask ----

struct MaskJob {
    const std::uint16_t* image = nullptr;
    std::uint8_t* mask = nullptr;
    int width = 0;
    int height = 0;
    int threshold = 0;
};

struct MaskParams {
    MaskJob jobs[max_pictures];
    int pictures = 1;
};

void launch_mask(const MaskParams& params, cudaStream_t stream);

// ---- §8, §9: decimation and mode filter of one scale, and its counting plane ----

struct ScaleJob {
    const std::uint16_t* previous = nullptr;  // the previous scale's filtered image (or P)
    int previous_width = 0;                   // its row length
    int decimate = 0;                         // 1: keep the even rows and columns of `previous`
    const std::uint8_t* mask = nullptr;       // the full-resolution mask M
    int mask_width = 0;
    int mask_shift = 0;                 // this scale's mask is M[i << shift][j << shift]
    std::uint16_t* filtered = nullptr;  // width × height, mode-filtered
    std::uint16_t* counted = nullptr;   // filtered where masked, `unmasked` elsewhere
    int width = 0;
    int height = 0;
};

struct ScaleParams {
    ScaleJob jobs[max_pictures];
    int pictures = 1;
};

void launch_scale(const ScaleParams& params, cudaStream_t stream);

// ---- §10: c-values of every plane (all scales of all pictures in one launch) ----

struct CValuePlane {
    const std::uint16_t* counted = nullptr;
    float* c = nullptr;
    int width = 0;
    int height = 0;
    int radius = 0;  // p = ws >> 1
    int tile_width =
        0;  // output columns per tile: the tile plus its window fill one block's columns
    int tiles_x = 0;
    int first_block = 0;  // this plane's tiles are blocks first_block ..
};

struct CValueParams {
    CValuePlane planes[max_planes];
    int plane_count = 0;
    int tile_rows = 0;                     // output rows per tile, at most max_tile_rows
    int slot_capacity = 0;                 // values counted per sweep of a tile
    int num_diffs = 0;                     // N
    int vis_lum = 0;                       // V_lt
    int tvi[max_contrast_steps] = {};      // T_δ at index δ-1
    int weights[max_contrast_steps] = {};  // W_δ at index δ-1
    // Bit v: some contrast step's gates pass for a centre value v (§10.1), so its c-value may be
    // non-zero.
    std::uint32_t centre_gates[value_words] = {};
    const float* reciprocal = nullptr;  // the §14 table on the device
};

inline constexpr int c_value_threads = 256;  // = the columns a tile's windows span
inline constexpr int max_tile_rows = 64;

// Slots for the window counts of one sweep: enough for one centre's 2N+1 values, at least 32.
int slot_capacity(int num_diffs);
std::size_t c_value_shared_bytes(int slot_capacity);
int total_blocks(const CValueParams& params);

// Call once before the first launch (raises the shared-memory limit where needed).
void configure_c_values(const CValueParams& params);
void launch_c_values(const CValueParams& params, cudaStream_t stream);

// ---- §11.1: exact top-k sums of every plane ----

struct TopKPlane {
    const float* c = nullptr;
    std::uint64_t count = 0;  // n = w·h
    std::uint64_t k = 0;
    int first_block = 0;
    int blocks = 0;
    unsigned long long* sum = nullptr;  // result: Σ of the k largest · 2^24, two words, low first
    unsigned* order_dependent = nullptr;  // result: 1 where §15.3's condition fails, else 0
};

struct TopKParams {
    TopKPlane planes[max_planes];
    int plane_count = 0;
    int total_blocks = 0;
};

inline constexpr int top_k_threads = 256;
inline constexpr std::size_t top_k_chunk = 32 * top_k_threads;  // elements per block

// Device scratch for the selection, zeroed by the pipeline before every frame.
std::size_t top_k_scratch_bytes();
void launch_top_k(const TopKParams& params, void* scratch, cudaStream_t stream);

// ---- reference_order=true: the planes whose sum is order-dependent, back to the host ----

struct ReadbackPlane {
    const float* c = nullptr;
    std::uint64_t count = 0;
    const unsigned* order_dependent = nullptr;  // the top-k stage's flag: copy only if set
    float* host = nullptr;  // pinned host memory, written by the kernel (unified addressing)
};

struct ReadbackParams {
    ReadbackPlane planes[max_planes];
    int plane_count = 0;
};

void launch_readback(const ReadbackParams& params, cudaStream_t stream);

}  // namespace vq::cambi::gpu
