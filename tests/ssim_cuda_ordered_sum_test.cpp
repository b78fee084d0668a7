// The CUDA twin's ordered sums (metrics/ssim/ssim_ordered_sum.hpp) on the host: the summaries built
// as the device builds them (8 terms a lane, then a tree over the warp's lanes; groups and
// super-groups as trees of 32) and walked (each window in order, and as the device's warp applies
// it), against the CPU twin's plain serial double sum, bit for bit, on terms made to break it:
// sums crossing powers of two and zero, ties on the grid, tiny and huge terms, NaN, and
// approximate running sums that are wrong.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/ssim/ssim_ordered_sum.hpp"

namespace vq::ssim::ordered {
namespace {

double serial_sum(const std::vector<double>& terms) {
    double sum = 0;
    for (double t : terms) sum += t;
    return sum;
}

// A warp's tree over 32 lanes' grids, lane 0's result, in the device's order (offsets 1..16).
Grid warp_tree(std::vector<Grid> lanes) {
    for (int offset = 1; offset < 32; offset *= 2)
        for (int lane = 0; lane + offset < 32; lane += 2 * offset)
            lanes[lane] = then(lanes[lane], lanes[lane + offset]);
    return lanes[0];
}

std::vector<Grid> level_above(const std::vector<Grid>& below) {
    std::vector<Grid> above((below.size() + fan_out - 1) / fan_out);
    for (std::size_t a = 0; a < above.size(); ++a) {
        std::vector<Grid> lanes(32, empty_grid());
        for (int j = 0; j < 32 && a * fan_out + j < below.size(); ++j)
            lanes[j] = below[a * fan_out + j];
        above[a] = warp_tree(lanes);
    }
    return above;
}

// The device's apply_run (WarpWalk::apply_run in ssim_cuda_sums.cu), lane by lane: an inclusive
// scan of then() over the window's lanes (shuffles up by 1, 2, 4, 8, 16), each lane's composition
// applied to a copy of the sum, the first failing lane, then that Grid alone. Checks the claim it
// rests on: the lanes that pass are exactly those before the first failing one.
int warp_apply_run(const Grid* grids, int j, int n, double& sum) {
    constexpr int lanes = 32;
    while (j < n) {
        std::vector<Grid> prefix(lanes);
        for (int lane = 0; lane < lanes; ++lane)
            prefix[lane] = lane >= j && lane < n ? grids[lane] : empty_grid();
        for (int offset = 1; offset < lanes; offset *= 2) {
            const std::vector<Grid> before = prefix;
            for (int lane = offset; lane < lanes; ++lane)
                prefix[lane] = then(before[lane - offset], before[lane]);
        }
        std::vector<double> reached(lanes, sum);
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
        if (!apply(grids[f], sum)) return f;
        j = f + 1;
    }
    return n;
}

// walk()'s context on the host: the levels read in place, the terms added in a plain loop, the
// windows applied in order or as the device's warp does.
struct HostWalk {
    const Grid* levels[3];
    const std::vector<double>* terms;
    bool as_warp;
    long long added = 0;

    template <int Level>
    const Grid* grids(long long first, int) const {
        return levels[Level] + first;
    }

    int apply_run(const Grid* grids, int j, int n, double& sum) const {
        return as_warp ? warp_apply_run(grids, j, n, sum) : apply_in_order(grids, j, n, sum);
    }

    double add_serially(double sum, long long first, long long end) {
        for (long long i = first; i < end; ++i) sum += (*terms)[std::size_t(i)];
        added += end - first;
        return sum;
    }
};

// `approximate(i)`: the guess of the running sum before term i that picks a chunk's binade.
// `serial`, when given, counts the terms the walk had to add one by one.
double ordered_sum(const std::vector<double>& terms,
                   const std::function<double(double exact_prefix)>& approximate, bool as_warp,
                   long long* serial = nullptr) {
    const long long count = (long long)terms.size();
    auto term = [&](long long i) { return terms[std::size_t(i)]; };
    std::vector<Grid> chunks((terms.size() + chunk_terms - 1) / chunk_terms);
    double prefix = 0;  // any-order approximation of the running sum: here the exact one
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        const int e = binade_of(approximate(prefix));
        std::vector<Grid> lanes(32);
        for (int j = 0; j < 32; ++j) {
            const long long first = (long long)c * chunk_terms + j * lane_terms;
            lanes[j] =
                lane_grid(term, std::min(first, count), std::min(first + lane_terms, count), e);
        }
        chunks[c] = warp_tree(lanes);
        for (long long i = (long long)c * chunk_terms;
             i < std::min(count, (long long)(c + 1) * chunk_terms); ++i)
            prefix += terms[std::size_t(i)];
    }
    const auto groups = level_above(chunks);
    const auto supers = level_above(groups);
    HostWalk context{{chunks.data(), groups.data(), supers.data()}, &terms, as_warp};
    const double sum = walk(context, count);
    if (serial) *serial = context.added;
    return sum;
}

void expect_same_bits(const std::vector<double>& terms, const std::string& what) {
    const double serial = serial_sum(terms);
    const std::function<double(double)> guesses[] = {
        [](double s) { return s; },
        [](double s) { return s * (1 + 1e-9); },
        [](double s) { return s * 0.75; },  // often one binade off: every chunk must fall back
        [](double) { return 0.0; },
    };
    for (const auto& guess : guesses)
        for (bool as_warp : {false, true}) {
            const double ordered = ordered_sum(terms, guess, as_warp);
            if (std::isnan(serial)) {
                EXPECT_TRUE(std::isnan(ordered)) << what;
            } else {
                EXPECT_EQ(bits_of(ordered), bits_of(serial))
                    << what << (as_warp ? " (warp)" : "") << ": " << ordered << " against "
                    << serial;
            }
        }
}

TEST(SsimOrderedSum, LuminanceAndContrastLikeTerms) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> near_one(0.9, 1.0000001);
    for (std::size_t n : {1u, 255u, 256u, 257u, 8191u, 8192u, 8193u, 300000u}) {
        std::vector<double> terms(n);
        for (double& t : terms) t = near_one(rng);
        expect_same_bits(terms, "near one, " + std::to_string(n));
    }
}

// The point of the scheme: with a good guess only the chunks where the sum crosses a power of two
// are added serially (here from 0 to about 2^18: some 18 chunks of 256 terms).
TEST(SsimOrderedSum, AddsFewTermsSerially) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> near_one(0.9, 1.0);
    std::vector<double> terms(300000);
    for (double& t : terms) t = near_one(rng);
    for (bool as_warp : {false, true}) {
        long long serial = 0;
        const double sum = ordered_sum(
            terms, [](double s) { return s * (1 + 1e-12); }, as_warp, &serial);
        EXPECT_EQ(bits_of(sum), bits_of(serial_sum(terms)));
        EXPECT_LT(serial, 30 * chunk_terms);
        EXPECT_GT(serial, 0);
    }
}

TEST(SsimOrderedSum, StructureLikeTermsOfBothSigns) {
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> any(-1, 1);
    for (double bias : {0.0, 0.01, -0.02, 0.5}) {
        std::vector<double> terms(200000);
        for (double& t : terms) t = double(float(any(rng) + bias));
        expect_same_bits(terms, "signed floats, bias " + std::to_string(bias));
    }
}

// Terms on a coarse grid make many sums exact and many additions exact ties of the sum's grid.
TEST(SsimOrderedSum, TiesOnTheGrid) {
    std::mt19937_64 rng(3);
    for (int shift : {-60, -52, -40, -30, -20}) {
        std::uniform_int_distribution<long long> units(-(1LL << 20), 1LL << 22);
        std::vector<double> terms(120000);
        for (double& t : terms) t = std::ldexp(double(units(rng)) + 0.5, shift + 20);
        expect_same_bits(terms, "grid 2^" + std::to_string(shift));
        for (double& t : terms) t = std::ldexp(double(units(rng) | 1), -1) * 3;
        expect_same_bits(terms, "odd halves");
    }
}

TEST(SsimOrderedSum, MixedMagnitudesZeroAndNaN) {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<double> terms(100000);
    for (double& t : terms) {
        const double r = unit(rng);
        t = r < 0.1 ? 0.0 : r < 0.2 ? -0.0 : r < 0.3 ? 1e-300 : r < 0.35 ? -1e5 : r < 0.4 ? 1e5 : r;
    }
    expect_same_bits(terms, "mixed");
    std::vector<double> zeros(5000, 0.0);
    expect_same_bits(zeros, "zeros");
    std::vector<double> negative_zeros(5000, -0.0);
    expect_same_bits(negative_zeros, "negative zeros");
    terms[70000] = std::numeric_limits<double>::quiet_NaN();
    expect_same_bits(terms, "NaN");
    terms[70000] = std::numeric_limits<double>::infinity();
    expect_same_bits(terms, "infinity");
}

bool same_grid(const Grid& a, const Grid& b) {
    return a.state == b.state && a.exponent == b.exponent && a.step[0] == b.step[0] &&
           a.step[1] == b.step[1] && a.low[0] == b.low[0] && a.low[1] == b.low[1] &&
           a.high[0] == b.high[0] && a.high[1] == b.high[1];
}

// lane_grid's one-track shortcut against the composition term by term, field for field, on lanes
// of up to 8 terms: ordinary terms, ties (the fallback), terms too large for the grid, NaN, sums
// that leave the checks' range, empty lanes and no binade.
TEST(SsimOrderedSum, LaneGridEqualsTheTermByTermComposition) {
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> exponents(-30, 30);
    const auto pick = [&](int e) {
        const double r = unit(rng);
        const double u = std::ldexp(1.0, e - 52);  // the grid's spacing
        if (r < 0.15) return std::ldexp(std::floor(unit(rng) * 1e6) + 0.5, e - 52);  // a tie
        if (r < 0.2) return std::ldexp(unit(rng), e + 3);                            // > 2^54 u
        if (r < 0.25) return std::ldexp(1.0 - unit(rng) * 1e-3, e + 2) * (r < 0.225 ? 1 : -1);
        if (r < 0.27) return std::numeric_limits<double>::quiet_NaN();
        if (r < 0.3) return r < 0.285 ? 0.0 : -0.0;
        return (unit(rng) - 0.3) * std::ldexp(1.0, e) + u * unit(rng);
    };
    int tie_lanes = 0, invalid_lanes = 0;
    for (int lane = 0; lane < 200000; ++lane) {
        const int e = lane % 50 == 0 ? no_exponent : exponents(rng);
        std::vector<double> terms(std::size_t(lane % 9));
        for (double& t : terms) t = pick(e == no_exponent ? 0 : e);
        const auto term = [&](long long i) { return terms[std::size_t(i)]; };
        const long long n = (long long)terms.size();
        const Grid fast = lane_grid(term, 0, n, e);
        const Grid composed = composed_lane_grid(term, 0, n, e);
        ASSERT_TRUE(same_grid(fast, composed)) << "lane " << lane;
        tie_lanes += composed.state == valid && composed.step[0] != composed.step[1];
        invalid_lanes += composed.state == invalid;
    }
    EXPECT_GT(tie_lanes, 1000);  // the draws reach both paths
    EXPECT_GT(invalid_lanes, 1000);
}

// A sum that oscillates around a power of two and around zero.
TEST(SsimOrderedSum, SumsThatBounceAcrossBoundaries) {
    std::vector<double> terms;
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -1.0000001 : 1.0000002);
    expect_same_bits(terms, "around zero");
    terms.assign(1, 4096.0 - 0.3);
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -0.7 : 0.70000001);
    expect_same_bits(terms, "around 4096");
}

}  // namespace
}  // namespace vq::ssim::ordered
