// The arithmetic steps of spec/ciede.md §4.1-4.5 (everything but the pow calls and branches),
// as templates on the value type T: double, or a vector of doubles in the CPU twin's kernels,
// never an integer. Written once so that the scalar and the vector code compute the very same
// expressions.
//
// INCLUDED BY ciede_math.hpp inside namespace vq::ciede, and once per instruction set through
// ciede_cpu_variant.hpp inside the kernel's namespace (so that GCC compiles those copies for that
// instruction set): deliberately no include guard.

// §4.1 code values -> normalised Y'CbCr.
template <typename T>
VQ_HD inline T normalised_luma(T code, const CodeScale& scale) {
    return (code - scale.luma_offset) * scale.luma_step;
}

template <typename T>
VQ_HD inline T normalised_chroma(T code, const CodeScale& scale) {
    return (code - scale.chroma_offset) * scale.chroma_step;
}

// §4.2 Y'CbCr -> R'G'B' (QUIRK: analogue Y'UV coefficients applied to ±0.5 chroma).
template <typename T>
VQ_HD inline T gamma_red(T y, T v) {
    return y + 1.28033 * v;
}

template <typename T>
VQ_HD inline T gamma_green(T y, T u, T v) {
    return (y - 0.21482 * u) - 0.38059 * v;
}

template <typename T>
VQ_HD inline T gamma_blue(T y, T u) {
    return y + 2.12798 * u;
}

// §4.3 the two branches of the transfer function.
template <typename T>
VQ_HD inline T transfer_base(T c) {
    return (c + 0.055) * (1.0 / 1.055);
}

template <typename T>
VQ_HD inline T transfer_linear(T c) {
    return c * (1.0 / 12.92);
}

// §4.4 linear RGB -> XYZ: each a left-to-right sum of three products.
template <typename T>
VQ_HD inline T xyz_x(T r, T g, T b) {
    return r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
}

template <typename T>
VQ_HD inline T xyz_y(T r, T g, T b) {
    return r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
}

template <typename T>
VQ_HD inline T xyz_z(T r, T g, T b) {
    return r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
}

// §4.5 the linear branch of f, and L*, a*, b* from the float-rounded f values (in double,
// before their own rounding to float).
template <typename T>
VQ_HD inline T lab_f_linear(T t) {
    return (lab_kappa * t + 16.0) * (1.0 / 116.0);
}

template <typename T>
VQ_HD inline T lightness(T fy) {
    return 116.0 * fy - 16.0;
}

template <typename T>
VQ_HD inline T red_green(T fx, T fy) {
    return 500.0 * (fx - fy);
}

template <typename T>
VQ_HD inline T yellow_blue(T fy, T fz) {
    return 200.0 * (fy - fz);
}
