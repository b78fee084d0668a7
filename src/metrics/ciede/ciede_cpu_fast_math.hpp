// Certified fast evaluation for the CPU twin's kernels: cheap vector approximations of the libm
// functions of spec/ciede.md §4 (sin, cos, atan2, exp, log for pow), and the test that makes
// them exact.
//
// Every libm result there ends up rounded to float after a few double operations (§4.5 f, and
// §4.6 rows 6, 12, 14, 16, 18). glibc's functions are accurate to about 1 ulp, and the
// approximations below are within ~1e-15 relative of the exact values too, so the reference's
// double value D lies within a small, known distance of an approximation A. If no float
// rounding boundary lies within that distance of A, then F(A) = F(D) exactly; otherwise the
// kernel recomputes that lane with the reference's own expression. The ΔE00 kernel takes the
// distance as certainty_margin·|A|, over 100 times the real one (its expressions have no
// cancellation); the Lab kernel propagates explicit bounds through its sums. Float boundaries
// are ~2^-24 apart against a margin of 2^-40, so about 1 lane in 30 000 falls back.
//
// INCLUDED ONCE PER INSTRUCTION SET after ciede_cpu_simd.hpp, inside the same namespace.

inline constexpr double certainty_margin = 0x1p-40;

// Lanes where every value within `error` of x rounds to the float `rounded` = F(x). A lane is
// certain when |x - F(x)| + error is below half the gap from F(x) to its nearer neighbour:
// 2^(e-24) for a normal float in [2^e, 2^(e+1)), 2^(e-25) for ±2^e itself (the gap below a
// power of two is half the gap above), 2^-150 for zero and subnormals.
VQ_KERNEL_INLINE Lv rounds_certainly(Dv x, Fv rounded, Dv error) {
    const Iv bits = (Iv)rounded;
    const Dv binade = widen((Fv)(bits & 0x7f800000));
    const Lv power_of_two = widen_mask((bits & 0x007fffff) == 0);
    const Dv half_gap =
        max(binade * (power_of_two ? Dv{} + 0x1p-25 : Dv{} + 0x1p-24), Dv{} + 0x1p-150);
    return abs(x - widen(rounded)) + error < half_gap;
}

VQ_KERNEL_INLINE Lv rounds_certainly(Dv x, Fv rounded) {
    return rounds_certainly(x, rounded, abs(x) * certainty_margin);
}

// Evaluates c[0] + c[1]·z + ... + c[N-1]·z^(N-1) by Estrin's scheme: adjacent coefficients pair
// up as c[2k] + c[2k+1]·z, those pairs with z^2, and so on, so the chain of dependent operations
// is about 2·log2(N) long instead of 2·N (the loops over rows are latency-bound otherwise).
template <int N>
VQ_KERNEL_INLINE Dv polynomial(Dv z, const double (&c)[N]) {
    Dv terms[N];
    for (int k = 0; k < N; ++k) terms[k] = Dv{} + c[k];
    int count = N;
    for (Dv power = z; count > 1; power = power * power) {
        for (int k = 0; 2 * k < count; ++k)
            terms[k] = 2 * k + 1 < count ? terms[2 * k] + terms[2 * k + 1] * power : terms[2 * k];
        count = (count + 1) / 2;
    }
    return terms[0];
}

// sin x for |x| <= π/2 + ε by its Taylor series through x^19 (truncation < 3e-16).
VQ_KERNEL_INLINE Dv sin_small(Dv x) {
    static constexpr double c[] = {-1.0 / 6.0,
                                   1.0 / 120.0,
                                   -1.0 / 5040.0,
                                   1.0 / 362880.0,
                                   -1.0 / 39916800.0,
                                   1.0 / 6227020800.0,
                                   -1.0 / 1307674368000.0,
                                   1.0 / 355687428096000.0,
                                   -1.0 / 121645100408832000.0};
    const Dv z = x * x;
    return x + x * (z * polynomial(z, c));
}

// cos x for |x| <= π/4 by its Taylor series through x^16 (truncation < 3e-18).
VQ_KERNEL_INLINE Dv cos_quarter(Dv x) {
    static constexpr double c[] = {-0.5,
                                   1.0 / 24.0,
                                   -1.0 / 720.0,
                                   1.0 / 40320.0,
                                   -1.0 / 3628800.0,
                                   1.0 / 479001600.0,
                                   -1.0 / 87178291200.0,
                                   1.0 / 20922789888000.0};
    const Dv z = x * x;
    return 1.0 + z * polynomial(z, c);
}

struct SinCos {
    Dv sin, cos;
};

// sin and cos of 0 <= x < 8 (hue angles up to 2.5π): reduction by π/2 in two parts (the high
// part has 33 significant bits, so k·hi is exact for k <= 5), then the quarter-range series.
VQ_KERNEL_INLINE SinCos sin_cos(Dv x) {
    constexpr double half_pi_hi = 0x1.921fb544p+0;
    constexpr double half_pi_lo = 0x1.0b4611a626331p-34;
    const Iv k = truncate(x * (2.0 / 3.14159265358979323846) + 0.5);
    const Dv kd = to_double(k);
    const Dv r = (x - kd * half_pi_hi) - kd * half_pi_lo;
    const Dv s = sin_small(r);
    const Dv c = cos_quarter(r);
    // Quadrant k: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s).
    const Lv odd = widen_mask((k & 1) != 0);
    const Dv sin_magnitude = odd ? c : s;
    const Dv cos_magnitude = odd ? s : c;
    return {widen_mask((k & 2) != 0) ? -sin_magnitude : sin_magnitude,
            widen_mask(((k + 1) & 2) != 0) ? -cos_magnitude : cos_magnitude};
}

// atan2(y, x). atan t for t = min/max in [0, 1] is atan(j/8) plus the series of
// atan(u), u = (t - j/8) / (1 + t·j/8) = (min - max·j/8) / (max + min·j/8), whose argument is
// below 1/16 (truncation < 2e-17). The table index j may come from a single-precision t: it
// only needs to be near 8t (clamped for memory safety). Lanes with x = y = 0 get an arbitrary
// finite value (callers replace it).
VQ_KERNEL_INLINE Dv atan2(Dv y, Dv x) {
    constexpr double pi = 3.14159265358979323846;
    static constexpr double atan_eighths[9] = {
        0.0,
        0x1.fd5ba9aac2f6ep-4,
        0x1.f5b75f92c80ddp-3,
        0x1.6f61941e4def1p-2,
        0x1.dac670561bb4fp-2,
        0x1.1e00babdefeb4p-1,
        0x1.4978fa3269ee1p-1,
        0x1.700a7c5784634p-1,
        0x1.921fb54442d18p-1,
    };
    static constexpr double c[] = {-1.0 / 3.0, 1.0 / 5.0, -1.0 / 7.0, 1.0 / 9.0, -1.0 / 11.0};
    const Dv ax = abs(x), ay = abs(y);
    const Dv low = min(ax, ay);
    const Dv high = max(max(ax, ay), Dv{} + 0x1p-100);
    Iv j = truncate(widen(narrow(low) / narrow(high)) * 8.0 + 0.5);
    j = j < 0 ? Iv{} : j > 8 ? Iv{} + 8 : j;
    const Dv tj = to_double(j) * 0.125;
    const Dv u = (low - high * tj) / (high + low * tj);
    const Dv z = u * u;
    Dv angle = gather(atan_eighths, j) + (u + u * (z * polynomial(z, c)));
    angle = ay > ax ? pi / 2 - angle : angle;
    angle = x < 0.0 ? pi - angle : angle;
    return y < 0.0 ? -angle : angle;
}

// ln 2 in two parts; the high part has 32 significant bits, so n·ln2_hi is exact for |n| < 2^20.
inline constexpr double ln2_hi = 0x1.62e42feep-1;
inline constexpr double ln2_lo = 0x1.a39ef35793c76p-33;

// exp z for |z| < 700: z = n·ln2 + r with |r| <= ln2/2, e^r by its series through r^12
// (truncation < 2e-16), then 2^n exactly.
VQ_KERNEL_INLINE Dv exp(Dv z) {
    static constexpr double c[] = {1.0,
                                   1.0,
                                   0.5,
                                   1.0 / 6.0,
                                   1.0 / 24.0,
                                   1.0 / 120.0,
                                   1.0 / 720.0,
                                   1.0 / 5040.0,
                                   1.0 / 40320.0,
                                   1.0 / 362880.0,
                                   1.0 / 3628800.0,
                                   1.0 / 39916800.0,
                                   1.0 / 479001600.0};
    const Dv half = z < 0.0 ? Dv{} - 0.5 : Dv{} + 0.5;
    const Iv n = truncate(z * (1.0 / 0.69314718055994530942) + half);  // nearest integer
    const Dv nd = to_double(n);
    const Dv r = (z - nd * ln2_hi) - nd * ln2_lo;
    const Lv biased = __builtin_convertvector(n, Lv) + 1023;
    return polynomial(r, c) * (Dv)(biased << 52);
}

// ln x for a positive normal x: x = m·2^e with m in [√½, √2), ln m = 2·atanh(s) with
// s = (m-1)/(m+1), |s| < 0.172, by its series through s^19 (truncation < 1e-16).
VQ_KERNEL_INLINE Dv log(Dv x) {
    static constexpr double c[] = {1.0 / 3.0,  1.0 / 5.0,  1.0 / 7.0,  1.0 / 9.0, 1.0 / 11.0,
                                   1.0 / 13.0, 1.0 / 15.0, 1.0 / 17.0, 1.0 / 19.0};
    const Uv bits = (Uv)x;
    // The exponent field as a double, exactly, by planting it in the mantissa of 2^52.
    const Dv field = (Dv)((bits >> 52) | 0x4330000000000000) - 0x1p52;
    Dv m = (Dv)((bits & 0x000fffffffffffff) | 0x3ff0000000000000);  // in [1, 2)
    const Lv high = m > 0x1.6a09e667f3bcdp+0;
    m = high ? m * 0.5 : m;
    const Dv e = field - (high ? Dv{} + 1022.0 : Dv{} + 1023.0);
    const Dv s = (m - 1.0) / (m + 1.0);
    const Dv z = s * s;
    return e * ln2_hi + (e * ln2_lo + (2.0 * s + 2.0 * s * (z * polynomial(z, c))));
}
