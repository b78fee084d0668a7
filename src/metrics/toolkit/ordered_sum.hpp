// A CPU twin's serial float or double sum (S = fl(S + t_i), the terms in one fixed order, thousands
// to millions of them) computed in parallel with the same bits. Host and device code (VQ_HD): the
// CUDA twins' kernels build the summaries and walk them (ordered_sum_warp.cuh); the host tests run
// the same functions against a plain serial loop. Used by SSIM/MS-SSIM (spec §6.3's double sums)
// and SpEED (spec §8.1's float means, §8.2's double covariances).
//
// Why it is exact. Let M be the format's significand bits (52 for double, 23 for float) and
// u = 2^(e-M) the spacing of its values in the binade [2^e, 2^(e+1)). If S is a multiple of u and
// the exact S + t lies in that binade (either sign), fl(S + t) is S + t rounded to the nearest
// multiple of u, ties to the even multiple. In units of u: K' = K + round(t/u), an integer step
// that depends on K only through its parity, and only at a tie. So a run of terms added while the
// sum stays in one binade is summarised, without knowing the sum it starts from, by a Grid: the
// integer step for an even and an odd start, and the range every intermediate K + t/u spans
// relative to the start. Grids of one binade compose exactly (integer arithmetic: associative, so
// any tree of them gives the serial result), and applying one to the actual sum is exact whenever
// the range check proves the whole run stayed in the binade.
//
// Both formats do the scaling in double: a float term or sum times 2^(23-e) is exact in double for
// every normal float binade, and a double one times 2^(52-e) for the binades allowed below.
//
// How it is used. The terms are cut into chunks of chunk_terms in the serial order; each chunk is
// summarised on the binade of an approximate running sum at its start (any order: a wrong guess
// only makes the check fail); fan_out chunks of one binade make a group, and as many groups a
// super-group. The walk then applies super-groups in order, descending into groups and chunks
// where the check fails (a sum crossing a power of two, a sum near zero), and adds the terms of a
// failing chunk serially: the CPU twin's sequence of roundings, step for step.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "cuda/host_device.hpp"

namespace vq::ordered {

inline constexpr int chunk_terms = 256;
inline constexpr int lane_terms = chunk_terms / 32;  // a warp summarises a chunk, 8 terms a lane
inline constexpr int fan_out = 32;                   // chunks per group, groups per super-group

inline constexpr int no_exponent = -10000;

// The sum's format: its bits, significand width M, exponent bias, and the binades a Grid may use.
// Sums outside them are added serially.
template <typename Real>
struct Format;

template <>
struct Format<double> {
    using Bits = std::uint64_t;
    static constexpr int significand = 52;
    static constexpr int bias = 1023;
    static constexpr int field_mask = 0x7ff;
    // [2^-900, 2^53): the scalings by 2^(52-e) and back stay exact (no overflow, no subnormal).
    static constexpr int lowest_exponent = -900;
    static constexpr int highest_exponent = 52;
};

template <>
struct Format<float> {
    using Bits = std::uint32_t;
    static constexpr int significand = 23;
    static constexpr int bias = 127;
    static constexpr int field_mask = 0xff;
    // Every normal binade but the last ([2^127, 2^128), whose next power of two overflows):
    // 2^(23-e) lies in [2^-103, 2^149], so a float times it is a normal double, exactly.
    static constexpr int lowest_exponent = -126;
    static constexpr int highest_exponent = 126;
};

// Units of u: 2^M is the binade's lowest K, 2^(M+1) its end.
template <typename Real>
inline constexpr long long binade_start = 1LL << Format<Real>::significand;
template <typename Real>
inline constexpr long long binade_end = 2 * binade_start<Real>;
// A term of 4 binade_start or more can never keep the sum in the binade.
template <typename Real>
inline constexpr double term_bound = double(4 * binade_start<Real>);

// Beyond it a Grid can never pass the check (for either format: a double's needs at most 2^53, a
// float's 2^24). Far from long long's range, so then() can add two fields without overflow.
inline constexpr long long limit = 1LL << 56;

struct Grid {
    long long step[2];  // K_end - K_start, for an even and an odd K_start
    long long low[2];   // every intermediate K + t/u lies in [K_start + low, K_start + high)
    long long high[2];
    int exponent;  // the binade e
    int state;     // empty, valid or invalid
};

inline constexpr int empty = 0;
inline constexpr int valid = 1;
inline constexpr int invalid = 2;

template <typename Real>
VQ_HD inline typename Format<Real>::Bits bits_of(Real x) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<Real, double>)
        return static_cast<std::uint64_t>(__double_as_longlong(x));
    else
        return __float_as_uint(x);
#else
    typename Format<Real>::Bits bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
#endif
}

// 2^k for k in [-1022, 1023], exactly, as a double.
VQ_HD inline double power_of_two(int k) {
    const std::uint64_t bits = std::uint64_t(k + 1023) << 52;
#if defined(__CUDA_ARCH__)
    return __longlong_as_double(static_cast<long long>(bits));
#else
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
#endif
}

// e with 2^e <= |s| < 2^(e+1), or no_exponent where no Grid may be used (0, tiny, huge, NaN).
template <typename Real>
VQ_HD inline int binade_of(Real s) {
    using F = Format<Real>;
    const int field = int((bits_of(s) >> F::significand) & F::field_mask);
    const int e = field - F::bias;
    return field == 0 || field == F::field_mask || e < F::lowest_exponent || e > F::highest_exponent
               ? no_exponent
               : e;
}

VQ_HD inline Grid empty_grid() { return {{0, 0}, {0, 0}, {0, 0}, no_exponent, empty}; }

VQ_HD inline Grid invalid_grid() { return {{0, 0}, {0, 0}, {0, 0}, no_exponent, invalid}; }

// One term t added on the grid of binade e.
template <typename Real>
VQ_HD inline Grid term_grid(Real t, int e) {
    if (e == no_exponent) return invalid_grid();
    // exact: a power of two in range
    const double tau = double(t) * power_of_two(Format<Real>::significand - e);
    if (!(std::fabs(tau) < term_bound<Real>)) return invalid_grid();  // NaN too
    const double whole = std::floor(tau);
    const double fraction = tau - whole;  // exact
    const long long f = static_cast<long long>(whole);
    Grid g;
    for (int p = 0; p < 2; ++p) {
        // A tie goes to the even one of K + f and K + f + 1.
        const bool up = fraction > 0.5 || (fraction == 0.5 && ((p + f) & 1) != 0);
        g.step[p] = f + (up ? 1 : 0);
        g.low[p] = f;
        g.high[p] = f + 1;
    }
    g.exponent = e;
    g.state = valid;
    return g;
}

VQ_HD inline bool out_of_range(long long v) { return v > limit || v < -limit; }

// `a` followed by `b` (the same for both formats: integer arithmetic on one binade's grid).
VQ_HD inline Grid then(const Grid& a, const Grid& b) {
    if (a.state == empty) return b;
    if (b.state == empty) return a;
    if (a.state != valid || b.state != valid || a.exponent != b.exponent) return invalid_grid();
    Grid g;
    for (int p = 0; p < 2; ++p) {
        const long long q = (p + a.step[p]) & 1;
        g.step[p] = a.step[p] + b.step[q];
        const long long low = a.step[p] + b.low[q];
        const long long high = a.step[p] + b.high[q];
        g.low[p] = a.low[p] < low ? a.low[p] : low;
        g.high[p] = a.high[p] > high ? a.high[p] : high;
        if (out_of_range(g.step[p]) || out_of_range(g.low[p]) || out_of_range(g.high[p]))
            return invalid_grid();
    }
    g.exponent = a.exponent;
    g.state = valid;
    return g;
}

// Adds the run `g` summarises to `sum` and returns true when that is provably the serial result;
// otherwise leaves `sum` alone and returns false.
template <typename Real>
VQ_HD inline bool apply(const Grid& g, Real& sum) {
    constexpr int m = Format<Real>::significand;
    if (g.state == empty) return true;
    if (g.state != valid) return false;
    const double scaled = double(sum) * power_of_two(m - g.exponent);  // exact
    if (!(std::fabs(scaled) < double(binade_end<Real>))) return false;
    const long long k = static_cast<long long>(scaled);
    if (double(k) != scaled) return false;  // sum is not on the binade's grid
    const int p = int(k & 1);
    const long long low = k + g.low[p];
    const long long high = k + g.high[p];
    const bool positive = low >= binade_start<Real> && high <= binade_end<Real>;
    const bool negative = low > -binade_end<Real> && high <= -binade_start<Real>;
    if (!positive && !negative) return false;
    // |K| <= 2^(M+1): exact in double, and a value of the format (at most the next power of two)
    sum = Real(double(k + g.step[p]) * power_of_two(g.exponent - m));
    return true;
}

// The type a term reader gives: the sum's format.
template <typename TermAt>
using term_type = std::decay_t<decltype(std::declval<const TermAt&>()(0LL))>;

// The summary of a lane's terms: term(i) for i in [first, end), in order, composed term by term.
template <typename TermAt>
VQ_HD Grid composed_lane_grid(const TermAt& term, long long first, long long end, int e) {
    Grid g = empty_grid();
    for (long long i = first; i < end; ++i) g = then(g, term_grid(term(i), e));
    return g;
}

// The same Grid as composed_lane_grid, field for field, at about half the work where no term is a
// tie (a fraction of exactly one half on the grid: about one term in 2^24 of a double's, more of a
// float's when the terms are close to the sum): a term without a tie steps the same for an even
// and an odd start, so then() keeps the two parities' fields equal and one track of them suffices.
// Its operations are then()'s for p = 0, in order, out-of-range checks included; a tie hands the
// whole lane to composed_lane_grid.
template <typename TermAt>
VQ_HD Grid lane_grid(const TermAt& term, long long first, long long end, int e) {
    using Real = term_type<TermAt>;
    if (first >= end) return empty_grid();
    if (e == no_exponent) return invalid_grid();
    const double scale = power_of_two(Format<Real>::significand - e);
    long long step = 0, low = 0, high = 0;
    for (long long i = first; i < end; ++i) {
        const double tau = double(term(i)) * scale;  // term_grid()'s operations
        if (!(std::fabs(tau) < term_bound<Real>)) return invalid_grid();
        const double whole = std::floor(tau);
        const double fraction = tau - whole;
        if (fraction == 0.5) return composed_lane_grid(term, first, end, e);
        const long long f = static_cast<long long>(whole);
        const long long rounded = f + (fraction > 0.5 ? 1 : 0);
        if (i == first) {  // then(empty, t) is t
            step = rounded;
            low = f;
            high = f + 1;
            continue;
        }
        const long long term_low = step + f;
        const long long term_high = step + (f + 1);
        step = step + rounded;
        low = low < term_low ? low : term_low;
        high = high > term_high ? high : term_high;
        if (out_of_range(step) || out_of_range(low) || out_of_range(high)) return invalid_grid();
    }
    return {{step, step}, {low, low}, {high, high}, e, valid};
}

// The number of Grids of level 0 (chunks), 1 (groups) and 2 (super-groups) for `count` terms.
VQ_HD inline long long level_size(int level, long long count) {
    long long size = (count + chunk_terms - 1) / chunk_terms;
    for (int l = 0; l < level; ++l) size = (size + fan_out - 1) / fan_out;
    return size;
}

// grids[j], grids[j + 1], ... applied to `sum` in order while apply() succeeds: the index of the
// first that fails (`sum` as after the one before it), or n.
template <typename Real>
VQ_HD inline int apply_in_order(const Grid* grids, int j, int n, Real& sum) {
    while (j < n && apply(grids[j], sum)) ++j;
    return j;
}

// Level `Level`'s Grids [first, end) applied to `sum` in order, descending where one fails.
// `context.template grids<L>(first, n)` gives level L's Grids first .. first + n - 1 (n <= 32);
// `context.apply_run(grids, j, n, sum)` does what apply_in_order does (the device's warp does it
// in parallel); `context.add_serially(sum, first, end)` adds terms [first, end) one by one, in
// order.
template <int Level, typename Context, typename Real>
VQ_HD void walk_level(Context& context, long long first, long long end, long long count,
                      Real& sum) {
    for (long long window = first; window < end; window += fan_out) {
        const int n = int(end - window < fan_out ? end - window : fan_out);
        const Grid* grids = context.template grids<Level>(window, n);
        for (int j = context.apply_run(grids, 0, n, sum); j < n;
             j = context.apply_run(grids, j + 1, n, sum)) {
            const long long index = window + j;
            if constexpr (Level == 0) {
                const long long last = (index + 1) * chunk_terms;
                sum = context.add_serially(sum, index * chunk_terms, last < count ? last : count);
            } else {
                const long long below = level_size(Level - 1, count);
                const long long last = (index + 1) * fan_out;
                walk_level<Level - 1>(context, index * fan_out, last < below ? last : below, count,
                                      sum);
            }
        }
    }
}

// The CPU twin's serial sum of `count` terms (of the type Context::Real), from the three levels of
// Grids built as above.
template <typename Context>
VQ_HD typename Context::Real walk(Context& context, long long count) {
    typename Context::Real sum = 0;
    walk_level<2>(context, 0, level_size(2, count), count, sum);
    return sum;
}

}  // namespace vq::ordered
