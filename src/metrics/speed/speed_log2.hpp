// A correctly rounded binary64 log2 for both SpEED twins' device side (spec/speed.md §8.8, §9).
//
// The CPU twin calls glibc's log2, as the reference does; CUDA's log2 is only faithful (up to 1
// ulp off), so the device evaluates log2 in double-double arithmetic (about 100 bits) and rounds
// once. glibc's log2 is correctly rounded on all but a vanishing share of inputs (its error bound
// is 0.502 ulp); speed_log2_test measures the agreement on the argument ranges SpEED produces.
// Every operation spells its rounding out: build with -ffp-contract=off (-fmad=false for nvcc).
#pragma once

#include <math.h>  // the C functions by their C names (fma, frexp), host and device alike

#include "cuda/host_device.hpp"

namespace vq::speed {
namespace double_double {

// An unevaluated sum hi + lo with |lo| <= ulp(hi) / 2.
struct Pair {
    double hi, lo;
};

VQ_HD inline Pair two_sum(double a, double b) {
    const double s = a + b;
    const double bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}

VQ_HD inline Pair quick_two_sum(double a, double b) {  // |a| >= |b|
    const double s = a + b;
    return {s, b - (s - a)};
}

VQ_HD inline Pair add(Pair a, Pair b) {
    Pair s = two_sum(a.hi, b.hi);
    const Pair t = two_sum(a.lo, b.lo);
    s.lo = s.lo + t.hi;
    s = quick_two_sum(s.hi, s.lo);
    s.lo = s.lo + t.lo;
    return quick_two_sum(s.hi, s.lo);
}

VQ_HD inline Pair mul(Pair a, Pair b) {
    const double p = a.hi * b.hi;
    const double error = fma(a.hi, b.hi, -p);  // exact: the product's rounding error
    return quick_two_sum(p, error + (a.hi * b.lo + a.lo * b.hi));
}

VQ_HD inline Pair div(Pair a, Pair b) {
    const double q1 = a.hi / b.hi;
    Pair r = add(a, mul(b, {-q1, 0.0}));
    const double q2 = r.hi / b.hi;
    r = add(r, mul(b, {-q2, 0.0}));
    const double q3 = r.hi / b.hi;
    return add(quick_two_sum(q1, q2), {q3, 0.0});
}

// 1 / (2k + 1) to about 106 bits.
VQ_HD inline Pair reciprocal_odd(int k) {
    const double d = double(2 * k + 1);
    const double hi = 1.0 / d;
    return {hi, fma(-hi, d, 1.0) / d};
}

// log2(e) = 1 / ln 2, hi + lo (speed_log2_test checks it against ln 2).
inline constexpr Pair log2_e{0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56};
inline constexpr Pair ln_2{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};

}  // namespace double_double

// log2(x) rounded to nearest from a ~100-bit value: x = m·2^e with m in [√½, √2), and
// ln m = 2 atanh(f) = 2 Σ f^(2k+1) / (2k+1) with f = (m - 1) / (m + 1), |f| <= 0.1716, so 23 terms
// reach 2^-106. Zero, negatives, infinities and NaN give C's log2 results (the NaN's sign may
// differ from glibc's; SpEED's arguments are positive).
VQ_HD inline double log2_rounded(double x) {
    namespace dd = double_double;
    if (x == 0.0) return -HUGE_VAL;
    if (!(x > 0.0)) return (x - x) / (x - x);  // negative or NaN: NaN
    if (x == HUGE_VAL) return x;
    int e = 0;
    double m = frexp(x, &e);  // m in [0.5, 1)
    if (m < 0x1.6a09e667f3bcdp-1) {
        m = m * 2.0;  // exact
        e = e - 1;
    }
    // m - 1 is exact for m in [0.5, 2] (Sterbenz); m + 1 is kept exactly as a pair.
    const dd::Pair f = dd::div({m - 1.0, 0.0}, dd::two_sum(m, 1.0));
    const dd::Pair f2 = dd::mul(f, f);
    constexpr int terms = 23;
    dd::Pair series = dd::reciprocal_odd(terms - 1);
    for (int k = terms - 2; k >= 0; --k)
        series = dd::add(dd::mul(series, f2), dd::reciprocal_odd(k));
    dd::Pair ln_m = dd::mul(f, series);
    ln_m = {2.0 * ln_m.hi, 2.0 * ln_m.lo};  // exact
    return dd::add({double(e), 0.0}, dd::mul(ln_m, dd::log2_e)).hi;
}

}  // namespace vq::speed
