// Helpers for the SSIM tests: the worked-example pictures of spec/ssim.md §13, a direct path to
// the stages, and a one-frame run through a Session.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "metrics/ssim/ssim_cpu_kernels.hpp"
#include "metrics/ssim/ssim_cpu_stages.hpp"
#include "metrics/ssim/ssim_cpu_terms.hpp"
#include "metrics/ssim/ssim_tables.hpp"
#include "metrics/toolkit/sample_type.hpp"
#include "support/pictures.hpp"
#include "vq/session.hpp"

namespace vq::test {

// §13.1: the 24x24 pair of example A (8-bit), and its 10-bit form of A2.
inline int example_a_ref(int x, int y) {
    return (3 * x * x + 5 * y * y + 7 * x * y + 11 * x + 13 * y) % 256;
}
inline int example_a_dist(int x, int y) {
    return std::clamp(example_a_ref(x, y) + (5 * x + 3 * y) % 9 - 4, 0, 255);
}

// §13.2: the 176x176 pair of example B.
inline int example_b_ref(int x, int y) { return 64 + (x * x + 2 * y * y + 3 * x * y + x) % 128; }
inline int example_b_dist(int x, int y) {
    return std::clamp(example_b_ref(x, y) + 4 * ((x / 8 + y / 8) % 3) - 4, 0, 255);
}

// §13.3: the 401x391 pair of example C.
inline int example_c_ref(int x, int y) { return (7 * x + 3 * y + (x * y) % 17) % 256; }
inline int example_c_dist(int x, int y) {
    return std::clamp(example_c_ref(x, y) + (x + y) % 5 - 2, 0, 255);
}

// A float printed as the spec's tables print them (9 significant digits), and a double as the
// outputs are printed (%.17g).
inline std::string g9(float value) { return fmt::format("{:.9g}", value); }
inline std::string g17(double value) { return fmt::format("{:.17g}", value); }

inline const ssim::Kernels& baseline_kernels() { return ssim::available_kernels().back(); }

// Spec §3 for a picture's luma.
inline ssim::FloatPlane float_luma(const Picture& picture) {
    ssim::FloatPlane plane;
    const int bit_depth = picture.format().bit_depth;
    with_sample_type(bit_depth, [&](auto sample) {
        ssim::convert_luma(picture.plane<decltype(sample)>(0), bit_depth, plane);
    });
    return plane;
}

// Spec §5's horizontal pass alone, T, of the whole plane.
inline ssim::FloatPlane horizontal_pass(const ssim::FloatPlane& p) {
    ssim::FloatPlane t;
    t.resize(p.width - (ssim::window - 1), p.height);
    for (int y = 0; y < p.height; ++y) {
        std::array<const float*, ssim::window> sources;
        for (int k = 0; k < ssim::window; ++k) sources[k] = p.row(y) + k;
        baseline_kernels().weighted_sum_row(sources.data(), ssim::gaussian.data(), ssim::window,
                                            t.width, t.row(y));
    }
    return t;
}

// Spec §5: the valid-region blur.
inline ssim::FloatPlane blur(const ssim::FloatPlane& p) {
    const ssim::FloatPlane t = horizontal_pass(p);
    ssim::FloatPlane b;
    b.resize(t.width, t.height - (ssim::window - 1));
    for (int y = 0; y < b.height; ++y) {
        std::array<const float*, ssim::window> sources;
        for (int k = 0; k < ssim::window; ++k) sources[k] = t.row(y + k);
        baseline_kernels().weighted_sum_row(sources.data(), ssim::gaussian.data(), ssim::window,
                                            b.width, b.row(y));
    }
    return b;
}

// Spec §6.1's element-wise product a * b.
inline ssim::FloatPlane product(const ssim::FloatPlane& a, const ssim::FloatPlane& b) {
    ssim::FloatPlane p = a;
    for (std::size_t i = 0; i < p.samples.size(); ++i) p.samples[i] = a.samples[i] * b.samples[i];
    return p;
}

// The five blurred moments of §6.1 at one position.
struct Moments {
    float mu_r, mu_d, e_rr, e_dd, e_rd;
};

inline std::vector<Moments> moment_planes(const ssim::FloatPlane& r, const ssim::FloatPlane& d,
                                          int& width) {
    const auto mu_r = blur(r), mu_d = blur(d);
    const auto e_rr = blur(product(r, r)), e_dd = blur(product(d, d)), e_rd = blur(product(r, d));
    width = mu_r.width;
    std::vector<Moments> m(mu_r.samples.size());
    for (std::size_t i = 0; i < m.size(); ++i)
        m[i] = {mu_r.samples[i], mu_d.samples[i], e_rr.samples[i], e_dd.samples[i],
                e_rd.samples[i]};
    return m;
}

// One frame pair through a Session, as the CLI would run it.
inline ScoreTable score_pair(const std::string& request, const Picture& ref, const Picture& dist,
                             unsigned threads = 1) {
    Session session({.threads = threads});
    session.add_feature(request);
    session.start(dist.format());
    session.push({ref, dist, 0});
    return session.finish();
}

// Output `name` of frame 0 (NaN when absent, which fails any comparison).
inline double score_of(const ScoreTable& table, const std::string& name) {
    const auto column = table.find(name);
    if (!column) return std::numeric_limits<double>::quiet_NaN();
    return table.value(*column, 0).value_or(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace vq::test
