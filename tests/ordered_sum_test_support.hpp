// The CUDA twins' ordered sums (metrics/toolkit/ordered_sum.hpp, ordered_sum_warp.cuh) on the
// host, for float and double sums alike: the summaries built as the device builds them (8 terms a
// lane, then a tree over the warp's lanes; groups and super-groups as trees of 32) and walked (each
// window in order, and as the device's warp applies it), compared bit for bit with the CPU twins'
// plain serial sum. Shared by the SSIM and SpEED sum tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/toolkit/ordered_sum.hpp"

namespace vq::ordered {

template <typename Real>
Real serial_sum(const std::vector<Real>& terms) {
    Real sum = 0;
    for (Real t : terms) sum += t;
    return sum;
}

// A warp's tree over 32 lanes' grids, lane 0's result, in the device's order (offsets 1..16).
inline Grid warp_tree(std::vector<Grid> lanes) {
    for (int offset = 1; offset < 32; offset *= 2)
        for (int lane = 0; lane + offset < 32; lane += 2 * offset)
            lanes[lane] = then(lanes[lane], lanes[lane + offset]);
    return lanes[0];
}

inline std::vector<Grid> level_above(const std::vector<Grid>& below) {
    std::vector<Grid> above((below.size() + fan_out - 1) / fan_out);
    for (std::size_t a = 0; a < above.size(); ++a) {
        std::vector<Grid> lanes(32, empty_grid());
        for (int j = 0; j < 32 && a * fan_out + j < below.size(); ++j)
            lanes[j] = below[a * fan_out + j];
        above[a] = warp_tree(lanes);
    }
    return above;
}

// The device's apply_run (WarpWalk::apply_run in ordered_sum_warp.cuh), lane by lane: Grid j
// alone, then an inclusive scan of then() over the window's remaining lanes (shuffles up by 1, 2,
// 4, 8, 16), each lane's composition applied to a copy of the sum, and on from the first failing
// lane. Checks the claim it rests on: the lanes that pass are exactly those before the first
// failing one.
template <typename Real>
int warp_apply_run(const Grid* grids, int j, int n, Real& sum) {
    constexpr int lanes = 32;
    while (j < n) {
        if (!apply(grids[j], sum)) return j;
        if (++j == n) return n;
        std::vector<Grid> prefix(lanes);
        for (int lane = 0; lane < lanes; ++lane)
            prefix[lane] = lane >= j && lane < n ? grids[lane] : empty_grid();
        for (int offset = 1; offset < lanes; offset *= 2) {
            const std::vector<Grid> before = prefix;
            for (int lane = offset; lane < lanes; ++lane)
                prefix[lane] = then(before[lane - offset], before[lane]);
        }
        std::vector<Real> reached(lanes, sum);
        int f = -1;
        for (int lane = 0; lane < lanes; ++lane) {
            const bool passes = apply(prefix[lane], reached[lane]);
            if (!passes && f < 0) f = lane;
            EXPECT_TRUE(f < 0 || !passes) << "lane " << lane << " passes after lane " << f;
        }
        if (f < 0) {
            sum = reached[lanes - 1];
            return n;
        }
        EXPECT_TRUE(f >= j && f < n);
        if (f > j) sum = reached[f - 1];
        j = f;
    }
    return n;
}

// walk()'s context on the host: the levels read in place, the terms added in a plain loop, the
// windows applied in order or as the device's warp does.
template <typename TermAt>
struct HostWalk {
    using Real = term_type<TermAt>;

    const Grid* levels[3];
    TermAt term;
    bool as_warp;
    long long added = 0;

    template <int Level>
    const Grid* grids(long long first, int) const {
        return levels[Level] + first;
    }

    int apply_run(const Grid* grids, int j, int n, Real& sum) const {
        return as_warp ? warp_apply_run(grids, j, n, sum) : apply_in_order(grids, j, n, sum);
    }

    Real add_serially(Real sum, long long first, long long end) {
        for (long long i = first; i < end; ++i) sum += term(i);
        added += end - first;
        return sum;
    }
};

// The ordered sum of term(0) .. term(count - 1) as the device forms it. `approximate(s)`: the
// guess, from the exact running sum s before a chunk, that picks the chunk's binade (the device's
// is a double sum in another order). `serial`, when given, counts the terms the walk had to add
// one by one.
template <typename TermAt>
term_type<TermAt> ordered_sum(const TermAt& term, long long count,
                              const std::function<double(double exact_prefix)>& approximate,
                              bool as_warp, long long* serial = nullptr) {
    using Real = term_type<TermAt>;
    std::vector<Grid> chunks(std::size_t(level_size(0, count)));
    double prefix = 0;  // any-order approximation of the running sum: here the exact one
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        const int e = binade_of(Real(approximate(prefix)));
        std::vector<Grid> lanes(32);
        for (int j = 0; j < 32; ++j) {
            const long long first = (long long)c * chunk_terms + j * lane_terms;
            lanes[j] =
                lane_grid(term, std::min(first, count), std::min(first + lane_terms, count), e);
        }
        chunks[c] = warp_tree(lanes);
        for (long long i = (long long)c * chunk_terms;
             i < std::min(count, (long long)(c + 1) * chunk_terms); ++i)
            prefix += double(term(i));
    }
    const auto groups = level_above(chunks);
    const auto supers = level_above(groups);
    HostWalk<TermAt> context{{chunks.data(), groups.data(), supers.data()}, term, as_warp};
    const Real sum = walk(context, count);
    if (serial) *serial = context.added;
    return sum;
}

template <typename Real>
struct VectorTerm {
    const std::vector<Real>* terms;
    Real operator()(long long i) const { return (*terms)[std::size_t(i)]; }
};

template <typename Real>
Real ordered_sum(const std::vector<Real>& terms,
                 const std::function<double(double exact_prefix)>& approximate, bool as_warp,
                 long long* serial = nullptr) {
    return ordered_sum(VectorTerm<Real>{&terms}, (long long)terms.size(), approximate, as_warp,
                       serial);
}

// The guesses of the running sum the tests try: exact, close, often one binade off (every chunk
// must fall back), and none at all.
inline std::vector<std::function<double(double)>> running_sum_guesses() {
    return {
        [](double s) { return s; },
        [](double s) { return s * (1 + 1e-9); },
        [](double s) { return s * 0.75; },
        [](double) { return 0.0; },
    };
}

// `serial` (the CPU twin's sum, NaN compared as NaN) against the ordered sum of `count` terms,
// with every guess, walked in order and as the warp walks.
template <typename TermAt>
void expect_same_bits(const TermAt& term, long long count, term_type<TermAt> serial,
                      const std::string& what) {
    for (const auto& guess : running_sum_guesses())
        for (bool as_warp : {false, true}) {
            const auto ordered = ordered_sum(term, count, guess, as_warp);
            if (std::isnan(serial)) {
                EXPECT_TRUE(std::isnan(ordered)) << what;
            } else {
                EXPECT_EQ(bits_of(ordered), bits_of(serial))
                    << what << (as_warp ? " (warp)" : "") << ": " << ordered << " against "
                    << serial;
            }
        }
}

template <typename Real>
void expect_same_bits(const std::vector<Real>& terms, const std::string& what) {
    expect_same_bits(VectorTerm<Real>{&terms}, (long long)terms.size(), serial_sum(terms), what);
}

inline bool same_grid(const Grid& a, const Grid& b) {
    return a.state == b.state && a.exponent == b.exponent && a.step[0] == b.step[0] &&
           a.step[1] == b.step[1] && a.low[0] == b.low[0] && a.low[1] == b.low[1] &&
           a.high[0] == b.high[0] && a.high[1] == b.high[1];
}

}  // namespace vq::ordered
