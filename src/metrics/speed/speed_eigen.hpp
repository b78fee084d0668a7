// The eigenvalues of SpEED's 25x25 covariance (spec/speed.md §8.3): float Householder
// tridiagonalisation, then implicit symmetric QR sweeps with a Wilkinson shift. The entropy adds
// the eigenvalues in the order they come out, so every step follows the spec exactly. Host and
// device code alike (both twins run this one definition): only IEEE-exact operations (float
// arithmetic, double sqrt and division) and comparisons.
#pragma once

#include <math.h>  // the C functions by their C names, host and device alike

#include "cuda/host_device.hpp"

namespace vq::speed::eigen {

inline constexpr int n = 25;  // block_samples
inline constexpr int max_sweeps = 500;

VQ_HD inline float sgn(float v) { return v >= 0.0f ? 1.0f : -1.0f; }
VQ_HD inline float sqrt32(float v) { return float(sqrt(double(v))); }
VQ_HD inline float hyp(float a, float b) { return sqrt32(a * a + b * b); }

// Who runs tridiagonalise(): the CPU twin one thread (SerialTeam), the CUDA twin a thread block
// sharing a, v and x. Members split only independent outputs (rows r, entries (r, c)) and each
// output keeps the serial order of its own sum; the scalars of a step are serial sums every
// member computes alike. sync() orders a step's writes before the next phase's reads.
struct SerialTeam {
    VQ_HD int rank() const { return 0; }
    VQ_HD int size() const { return 1; }
    VQ_HD void sync() const {}
};

// Spec §8.3.1: reduces a (row-major n x n) in place; d and e come from its lower triangle. v and
// x are n floats of scratch.
template <typename Team>
VQ_HD void tridiagonalise(float* a, float* d, float* e, float* v, float* x, Team team) {
    const auto at = [&](int r, int c) -> float& { return a[r * n + c]; };
    const int first = team.rank(), stride = team.size();
    for (int i = 0; i + 2 < n; ++i) {
        const int s = i + 1;
        float ss = 0.0f;
        for (int r = i + 2; r < n; ++r) ss = ss + at(r, i) * at(r, i);
        const float xn = sqrt32(ss);
        float tau = 0.0f, beta = 0.0f, q = 0.0f;
        if (xn != 0.0f) {
            const float alpha = at(s, i);
            beta = -sgn(alpha) * hyp(alpha, xn);
            tau = (beta - alpha) / beta;
            q = alpha - beta;
        }
        team.sync();    // every member has read column i
        if (q != 0.0f)  // column i scaled by 1/q below the diagonal, then its first entry beta
            for (int r = s + first; r < n; r += stride) at(r, i) = r == s ? beta : at(r, i) / q;
        team.sync();
        if (tau == 0.0f) continue;
        for (int r = s + first; r < n; r += stride) v[r] = r == s ? 1.0f : at(r, i);
        team.sync();
        for (int r = s + first; r < n; r += stride) {
            float sum = 0.0f;
            for (int c = s; c < n; ++c) sum = sum + (tau * at(r, c)) * v[c];
            x[r] = sum;
        }
        team.sync();
        float xv = 0.0f;
        for (int r = s; r < n; ++r) xv = xv + x[r] * v[r];
        const float gamma = float((-0.5 * double(tau)) * double(xv));
        team.sync();  // every member has read x
        for (int r = s + first; r < n; r += stride) x[r] = x[r] + gamma * v[r];
        team.sync();
        const int m = n - s;
        for (int entry = first; entry < m * m; entry += stride) {
            const int r = s + entry / m, c = s + entry % m;
            at(r, c) = at(r, c) - (x[r] * v[c] + v[r] * x[c]);
        }
        team.sync();
    }
    for (int r = first; r < n; r += stride) {
        d[r] = at(r, r);
        if (r + 1 < n) e[r] = at(r + 1, r);
    }
    team.sync();
}

// Spec §8.3.2.
VQ_HD inline void chop(const float* d, float* e, int m) {
    for (int r = 0; r + 1 < m; ++r)
        if (double(fabsf(e[r])) < 1e-6 * double(fabsf(d[r]) + fabsf(d[r + 1]))) e[r] = 0.0f;
}

struct Rotation {
    float c, s;
};

// Spec §8.3.3's Givens pair: u is a double reciprocal square root rounded once, not 1/sqrtf.
VQ_HD inline Rotation rot(float a, float b) {
    if (b == 0.0f) return {1.0f, 0.0f};
    if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float u = float(1.0 / sqrt(double(1.0f + t * t)));
        return {u * t, u};
    }
    const float t = -b / a;
    const float u = float(1.0 / sqrt(double(1.0f + t * t)));
    return {u, u * t};
}

struct Window {
    float ap, bp, aq;
};

VQ_HD inline Window rotate(const Window& w, const Rotation& r) {
    const float c = r.c, s = r.s;
    return {c * (c * w.ap - s * w.bp) + s * (s * w.aq - c * w.bp),
            c * (s * w.ap + c * w.bp) - s * (s * w.bp + c * w.aq),
            s * (s * w.ap + c * w.bp) + c * (s * w.bp + c * w.aq)};
}

VQ_HD inline float wilkinson_shift(const float* d, const float* e, int m) {
    const float ta = d[m - 2], tb = d[m - 1], tab = e[m - 2];
    const float dt = (ta - tb) / 2.0f;
    float mu;
    if (dt > 0.0f)
        mu = tb - tab * (tab / (dt + hyp(dt, tab)));
    else if (dt == 0.0f)
        mu = tb - fabsf(tab);
    else
        mu = tb + tab * (tab / ((-dt) + hyp(dt, tab)));
    if (1e-6 * double(fabsf(mu)) > double(fabsf(d[0]) + fabsf(e[0]))) mu = 0.0f;
    return mu;
}

// Spec §8.3.3: one implicit QR sweep on the block d[0..m-1], e[0..m-2] (m >= 2).
VQ_HD inline void sweep(float* d, float* e, int m) {
    const float mu = wilkinson_shift(d, e, m);
    float x = d[0] - mu, z = e[0];
    Window w{d[0], e[0], d[1]};
    if (m == 2) {
        const Window out = rotate(w, rot(x, z));
        d[0] = out.ap, e[0] = out.bp, d[1] = out.aq;
        return;
    }
    float bk = 0.0f, zk = 0.0f, bq = e[1];
    for (int k = 0; k + 1 < m; ++k) {
        const Rotation r = rot(x, z);
        const float bk_previous = r.c * bk - r.s * zk;
        const Window out = rotate(w, r);
        zk = (-r.s) * bq;
        bk = out.bp;
        w.ap = out.aq;
        w.bp = r.c * bq;
        if (k < m - 2) w.aq = d[k + 2];
        if (k < m - 3) bq = e[k + 2];
        d[k] = out.ap;
        if (k > 0) e[k - 1] = bk_previous;
        if (k < m - 2) e[k + 1] = w.bp;
        x = bk;
        z = zk;
    }
    d[m - 1] = w.ap;
    e[m - 2] = bk;
}

// Spec §8.3.4 on the tridiagonal d, e (in place): the eigenvalues end in d; returns the number
// of QR sweeps.
VQ_HD inline int qr_iterations(float* d, float* e) {
    // Past max_sweeps the reference warns and keeps d as it stands; so does vq.
    chop(d, e, n);
    int b = n - 1, iterations = 0;
    while (b > 0 && iterations < max_sweeps) {
        if (e[b - 1] == 0.0f) {
            --b;
            continue;
        }
        int first = b - 1;
        while (first > 0 && e[first - 1] != 0.0f) --first;
        sweep(d + first, e + first, b - first + 1);
        chop(d + first, e + first, b - first + 1);
        ++iterations;
    }
    return iterations;
}

// The eigenvalues of k (row-major, symmetric) into d, on one thread; returns the QR sweeps.
VQ_HD inline int eigenvalues(const float* k, float* d) {
    float a[n * n], e[n - 1], v[n], x[n];
    for (int i = 0; i < n * n; ++i) a[i] = k[i];
    tridiagonalise(a, d, e, v, x, SerialTeam{});
    return qr_iterations(d, e);
}

}  // namespace vq::speed::eigen
