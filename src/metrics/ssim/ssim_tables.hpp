// The constants of spec §4: the stabilisers, the Gaussian window, the MS-SSIM down-sampling
// kernel and exponents, as the reference's binary32 literals (no renormalisation anywhere).
#pragma once

#include <array>

namespace vq::ssim {

// Computed in binary32 at every bit depth: the samples are brought to the 8-bit range (§3).
inline constexpr float k1l = 0.01f * 255;
inline constexpr float k2l = 0.03f * 255;
inline constexpr float c1 = k1l * k1l;
inline constexpr float c2 = k2l * k2l;
inline constexpr float c3 = c2 / 2;

// The 11 separable Gaussian taps (sigma 1.5, rounded to 6 decimals: they sum to 1.000002).
inline constexpr std::array<float, 11> gaussian = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

// Appendix A, row-major (row v, column u, both -4..4). Close to the outer product of the 9/7
// low-pass but not equal to it: the table is the contract.
inline constexpr int lpf_taps = 9;
// clang-format off
inline constexpr std::array<float, lpf_taps * lpf_taps> lpf = {
     0.000714f, -0.000450f, -0.002090f,  0.007132f,  0.016114f,  // row -4
     0.007132f, -0.002090f, -0.000450f,  0.000714f,
    -0.000450f,  0.000283f,  0.001316f, -0.004490f, -0.010146f,  // row -3
    -0.004490f,  0.001316f,  0.000283f, -0.000450f,
    -0.002090f,  0.001316f,  0.006115f, -0.020867f, -0.047149f,  // row -2
    -0.020867f,  0.006115f,  0.001316f, -0.002090f,
     0.007132f, -0.004490f, -0.020867f,  0.071207f,  0.160885f,  // row -1
     0.071207f, -0.020867f, -0.004490f,  0.007132f,
     0.016114f, -0.010146f, -0.047149f,  0.160885f,  0.363505f,  // row 0
     0.160885f, -0.047149f, -0.010146f,  0.016114f,
     0.007132f, -0.004490f, -0.020867f,  0.071207f,  0.160885f,  // row 1
     0.071207f, -0.020867f, -0.004490f,  0.007132f,
    -0.002090f,  0.001316f,  0.006115f, -0.020867f, -0.047149f,  // row 2
    -0.020867f,  0.006115f,  0.001316f, -0.002090f,
    -0.000450f,  0.000283f,  0.001316f, -0.004490f, -0.010146f,  // row 3
    -0.004490f,  0.001316f,  0.000283f, -0.000450f,
     0.000714f, -0.000450f, -0.002090f,  0.007132f,  0.016114f,  // row 4
     0.007132f, -0.002090f, -0.000450f,  0.000714f,
};
// clang-format on

// The per-scale exponents: alpha (luminance) and beta = gamma (contrast, structure).
inline constexpr std::array<float, 5> luminance_exponents = {0, 0, 0, 0, 0.1333f};
inline constexpr std::array<float, 5> contrast_exponents = {0.0448f, 0.2856f, 0.3001f, 0.2363f,
                                                            0.1333f};

}  // namespace vq::ssim
