// CAMBI, CPU twin: every stage of the per-picture pipeline (§4) as a separately callable
// function, so that the CUDA twin can be compared with it stage by stage, and the whole picture.
//
// Working planes are contiguous (stride = width): 10-bit samples in uint16_t, the mask in
// uint8_t (0 or 1), c-values in float.
#pragma once

#include <memory>

#include "feature/feature.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/cambi/cambi_heatmap.hpp"

namespace vq::cambi {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);

// §4: the score of one picture (before the cambi_max_val clamp). Captures each scale's c-values
// into `heatmap` when it is not null.
double score_picture(const Picture& picture, const Config& config, const PictureGeometry& geometry,
                     HeatmapFrame* heatmap);

// ---- Per-picture stages, in pipeline order ----

// §6.1: throws vq::Error (runtime) if a luma sample exceeds the bit depth's maximum.
void check_luma_range(const Picture& picture);

// §6.2 + §6.3: the input luma, resized to W×H and converted to 10 bits.
void convert_luma(const Picture& picture, const PictureGeometry& geometry, std::uint16_t* out);

// §6.4, in place, on 10-bit codes.
void anti_dither(std::uint16_t* plane, int width, int height);

// §7: mask (0/1) of the pixels whose 7×7 neighbourhood has more than `threshold` flat pixels.
void spatial_mask(const std::uint16_t* plane, int width, int height, int threshold,
                  std::uint8_t* mask);

// §8: keeps the even rows and columns; out may be the same buffer as in.
void decimate(const std::uint16_t* in, int width, int height, std::uint16_t* out);
void decimate(const std::uint8_t* in, int width, int height, std::uint8_t* out);

// §9, in place.
void mode_filter(std::uint16_t* plane, int width, int height);

// §10: the c-value of every pixel with a window of `window` (odd) pixels.
void c_values(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
              int window, const ContrastParams& contrast, float* out);

// §11.1: the reference's quick-select; leaves the k largest values in c[0..k-1] in the order the
// reference sums them.
void quick_select(std::span<float> c, std::size_t k);

// §11.1: mean of the k largest c-values, bit-identical to the reference's sum in quick-select
// order. May permute `c`.
double top_k_mean(std::span<float> c, double topk);

}  // namespace vq::cambi
