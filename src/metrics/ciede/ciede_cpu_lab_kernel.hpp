// The CPU twin's Y'CbCr -> CIELAB kernel: a batch of code triples, a vector of lanes at a time.
//
// The exact steps (normalisation, matrix, the linear branches, and L*a*b* from the float f
// values) are the templates of ciede_colour_steps.hpp evaluated on vectors. The six pow calls
// become exp(p·ln x) from ciede_cpu_fast_math.hpp, and the errors are tracked to the three float
// roundings of f (spec/ciede.md §4.5): a lane whose f rounding, or whose t > ε branch, is not
// certain within the propagated bound is recomputed with the scalar ycbcr_to_lab.
//
// INCLUDED ONCE PER INSTRUCTION SET after ciede_cpu_fast_math.hpp, inside the same namespace.

// Bound on the relative distance between exp(p·ln x) here and the reference's pow(x, p) (both
// are within ~1e-15 of x^p).
inline constexpr double pow_error = 0x1p-46;

// lin(c) (§4.3), and in `error` a bound on its distance from the reference's value (zero on the
// linear branch, which is the reference's own expression).
VQ_KERNEL_INLINE Dv approximate_linearise(Dv c, Dv& error) {
    const Lv curved = c > transfer_breakpoint;
    const Dv power = exp(transfer_exponent * log(curved ? transfer_base(c) : Dv{} + 1.0));
    error = curved ? power * pow_error : Dv{};
    return curved ? power : transfer_linear(c);
}

// Bound on the distance between c1·r + c2·g + c3·b here and in the reference, given bounds on
// the distances of r, g, b: what those propagate, plus the roundings of both sums (five each,
// at most 2^-53 of the sum of magnitudes apiece), generously.
VQ_KERNEL_INLINE Dv sum_error(Dv r, Dv g, Dv b, Dv error_r, Dv error_g, Dv error_b, double c1,
                              double c2, double c3) {
    return c1 * (error_r + abs(r) * 0x1p-48) + c2 * (error_g + abs(g) * 0x1p-48) +
           c3 * (error_b + abs(b) * 0x1p-48);
}

// f(t) (§4.5) rounded to float, for a t within `error` of the reference's. `certain` marks the
// lanes where that rounding and the branch taken are certainly the reference's.
VQ_KERNEL_INLINE Fv approximate_lab_f(Dv t, Dv error, Lv& certain) {
    const Lv curved = t > lab_epsilon;
    const Dv root = exp(lab_f_exponent * log(curved ? t : Dv{} + 1.0));
    const Dv f = curved ? root : lab_f_linear(t);
    // Slopes: d(t^(1/3))/dt = f/(3t); the linear branch's is kappa/116.
    const Dv f_error =
        curved ? root * (error / (3.0 * t) + pow_error) : (lab_kappa / 116.0) * error;
    const Fv rounded = narrow(f);
    certain = rounds_certainly(f, rounded, f_error + abs(f) * certainty_margin) &
              (abs(t - lab_epsilon) > error);
    return rounded;
}

VQ_KERNEL_INLINE Dv load_codes(const std::int32_t* p) {
    Iv v;
    __builtin_memcpy(&v, p, sizeof v);
    return to_double(v);
}

// batch.{L,a,b}[i] = ycbcr_to_lab(batch.{y,cb,cr}[i]) for i < count.
inline void lab_kernel(LabBatch& batch, int count, const CodeScale& scale) {
    const int n = padded_size(count);
    for (int i = 0; i < n; i += lanes) {
        // Parenthesised names: argument-dependent lookup would also find ciede_math.hpp's copy.
        const Dv y = (normalised_luma)(load_codes(&batch.y[i]), scale);
        const Dv u = (normalised_chroma)(load_codes(&batch.cb[i]), scale);
        const Dv v = (normalised_chroma)(load_codes(&batch.cr[i]), scale);
        Dv error_r, error_g, error_b;
        const Dv r = approximate_linearise(gamma_red(y, v), error_r);
        const Dv g = approximate_linearise(gamma_green(y, u, v), error_g);
        const Dv b = approximate_linearise(gamma_blue(y, u), error_b);
        // The multiplier bounds are the matrix rows of §4.4 rounded up, times the white point's
        // reciprocal (at most 1.06) for X and Z.
        const Dv error_x =
            1.06 * sum_error(r, g, b, error_r, error_g, error_b, 0.4125, 0.3576, 0.1805);
        const Dv error_y = sum_error(r, g, b, error_r, error_g, error_b, 0.2127, 0.7152, 0.0722);
        const Dv error_z =
            1.06 * sum_error(r, g, b, error_r, error_g, error_b, 0.0194, 0.1192, 0.9504);
        Lv certain_x, certain_y, certain_z;
        const Fv fx = approximate_lab_f(xyz_x(r, g, b) * white_x_reciprocal, error_x, certain_x);
        const Fv fy = approximate_lab_f(xyz_y(r, g, b), error_y, certain_y);
        const Fv fz = approximate_lab_f(xyz_z(r, g, b) * white_z_reciprocal, error_z, certain_z);
        Fv L = narrow(lightness(widen(fy)));
        Fv a = narrow(red_green(widen(fx), widen(fy)));
        Fv b_star = narrow(yellow_blue(widen(fy), widen(fz)));
        if (!all(certain_x & certain_y & certain_z))
            for (int k = 0; k < lanes; ++k) {
                const Lab exact =
                    ycbcr_to_lab(batch.y[i + k], batch.cb[i + k], batch.cr[i + k], scale);
                L[k] = exact.L;
                a[k] = exact.a;
                b_star[k] = exact.b;
            }
        store(&batch.L[i], L);
        store(&batch.a[i], a);
        store(&batch.b[i], b_star);
    }
}
