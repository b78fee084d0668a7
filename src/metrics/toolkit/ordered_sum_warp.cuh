// ordered_sum.hpp's scheme on the device, one warp per chunk, level Grid or walk: the pieces every
// CUDA twin with a serial sum shares (SSIM, SpEED). A twin's kernels name its terms with a reader
// (term(i), a float or double, the sum's format) and its own scratch layout; these functions do the
// rest. Launch each with blocks of one warp (32 threads), except running_sums (a whole block).
// nvcc only.
#pragma once

#include "metrics/toolkit/ordered_sum.hpp"

namespace vq::ordered {

inline constexpr int warp_lanes = 32;
inline constexpr int running_threads = 1024;

// A Grid through a warp shuffle, field by field: shuffle(v) is one __shfl_*_sync of v.
template <typename Shuffle>
__device__ Grid shuffled(const Grid& g, const Shuffle& shuffle) {
    Grid o;
    for (int p = 0; p < 2; ++p) {
        o.step[p] = shuffle(g.step[p]);
        o.low[p] = shuffle(g.low[p]);
        o.high[p] = shuffle(g.high[p]);
    }
    o.exponent = shuffle(g.exponent);
    o.state = shuffle(g.state);
    return o;
}

__device__ inline Grid shuffle_down(const Grid& g, int offset) {
    return shuffled(g, [offset](auto v) { return __shfl_down_sync(0xffffffffu, v, offset); });
}

__device__ inline Grid shuffle_up(const Grid& g, int offset) {
    return shuffled(g, [offset](auto v) { return __shfl_up_sync(0xffffffffu, v, offset); });
}

// The lanes' Grids composed in lane order (adjacent ranges, offsets 1..16); valid in lane 0.
__device__ inline Grid warp_then(Grid g) {
    const int lane = int(threadIdx.x) % warp_lanes;
    for (int offset = 1; offset < warp_lanes; offset *= 2) {
        const Grid next = shuffle_down(g, offset);
        if (lane % (2 * offset) == 0) g = then(g, next);
    }
    return g;
}

// Chunk `chunk`'s Grid on binade e (lane_terms terms a lane, then warp_then): valid in lane 0.
template <typename TermAt>
__device__ Grid chunk_grid(const TermAt& term, long long chunk, long long count, int e) {
    const int lane = int(threadIdx.x) % warp_lanes;
    long long first = chunk * chunk_terms + lane * lane_terms;
    long long end = first + lane_terms;
    first = first < count ? first : count;
    end = end < count ? end : count;
    return warp_then(lane_grid(term, first, end, e));
}

// Grid `index` of the level above `below` (`below_count` Grids): fan_out of them composed in
// order; valid in lane 0.
__device__ inline Grid level_grid(const Grid* below, long long below_count, long long index) {
    const long long source = index * fan_out + int(threadIdx.x) % warp_lanes;
    return warp_then(source < below_count ? below[source] : empty_grid());
}

// out[c] = in[0] + ... + in[c - 1] (double, any order: only a guess of the running sum before
// chunk c, for its binade), by a block of Threads threads: each a run of chunks, then a scan over
// the threads. `in` may be `out`; with `clear`, in[c] = 0 once read.
template <int Threads = running_threads>
__device__ void running_sums(double* in, double* out, long long chunks, bool clear) {
    const long long per_thread = (chunks + Threads - 1) / Threads;
    const long long first = threadIdx.x * per_thread;
    const long long end = first + per_thread < chunks ? first + per_thread : chunks;
    double own = 0;
    for (long long c = first; c < end; ++c) own += in[c];
    __shared__ double totals[Threads];
    totals[threadIdx.x] = own;
    __syncthreads();
    for (int offset = 1; offset < Threads; offset *= 2) {
        const double add = threadIdx.x >= unsigned(offset) ? totals[threadIdx.x - offset] : 0.0;
        __syncthreads();
        totals[threadIdx.x] += add;
        __syncthreads();
    }
    double running = totals[threadIdx.x] - own;
    for (long long c = first; c < end; ++c) {  // this thread's own chunks, read for the last time
        const double value = in[c];
        if (clear) in[c] = 0;
        out[c] = running;
        running += value;
    }
}

// Chunks of terms a failing chunk stages in shared memory: it and the next ones, which the walk
// then usually needs too (sums near zero, or crossing powers of two often, fail chunk after chunk),
// so a load's latency is paid once for several chunks.
inline constexpr int staged_chunks = 4;
inline constexpr int staged_terms = staged_chunks * chunk_terms;

// walk()'s context on the device. Every lane of the warp walks the same sum (same data, same
// path), so the warp can fetch together: each window of 32 Grids, and a failing chunk's terms
// (with the next chunks': staged_chunks), go to shared memory in one parallel load instead of one
// dependent global load at a time; and it applies a window's Grids in parallel (apply_run).
template <typename TermAt>
struct WarpWalk {
    using Real = term_type<TermAt>;

    const Grid* levels[3];
    TermAt term;
    long long count;           // terms in all
    Grid (*windows)[fan_out];  // one window per level: a descent keeps the one above
    Real* staged;              // staged_terms: terms [staged_first, staged_first + staged_terms)
    long long staged_first = -1;

    template <int Level>
    __device__ const Grid* grids(long long first, int n) {
        Grid* window = windows[Level];
        __syncwarp();  // every lane is done with the window's previous contents
        if (int(threadIdx.x) < n) window[threadIdx.x] = levels[Level][first + threadIdx.x];
        __syncwarp();
        return window;
    }

    // apply_in_order's result. Grid j is tried alone first: where a sum hovers near zero, or
    // crosses powers of two often, Grid after Grid fails, and a scan would be wasted on each.
    // When it passes, the warp tries the rest of the window at once: lane k composes the Grids
    // from j to k (a scan of then()) and applies that to a copy of the sum. The prefixes that pass
    // are j .. f - 1 for some f (a composition's range contains its parts' ranges, so if one
    // passes, the shorter ones do), and lane f - 1 holds the sum after them. then() refuses Grids
    // of different binades, which apply() may still pass one by one (the sum can move to the next
    // binade between them), so Grid f is then tried alone, as apply_in_order would. Each pass
    // advances j, so it ends.
    __device__ int apply_run(const Grid* grids, int j, int n, Real& sum) const {
        const int lane = int(threadIdx.x);
        while (j < n) {
            if (!apply(grids[j], sum)) return j;
            if (++j == n) return n;
            Grid prefix = lane >= j && lane < n ? grids[lane] : empty_grid();
            for (int offset = 1; offset < warp_lanes; offset *= 2) {
                const Grid before = shuffle_up(prefix, offset);
                if (lane >= offset) prefix = then(before, prefix);
            }
            Real reached = sum;
            const bool passes = apply(prefix, reached);
            const unsigned failing = __ballot_sync(0xffffffffu, !passes);
            if (failing == 0) {  // lanes from n on hold lane n - 1's composition
                sum = __shfl_sync(0xffffffffu, reached, warp_lanes - 1);
                return n;
            }
            const int f = __ffs(int(failing)) - 1;  // j <= f < n: lanes before j hold nothing
            if (f > j) sum = __shfl_sync(0xffffffffu, reached, f - 1);
            j = f;
        }
        return n;
    }

    // Terms [first, end) of one chunk added to `sum` in order, from the staged terms (staging
    // this chunk and the next ones first where they are not there).
    __device__ Real add_serially(Real sum, long long first, long long end) {
        if (staged_first < 0 || first < staged_first || end > staged_first + staged_terms)
            stage(first);
        return add_in_order(sum, staged + (first - staged_first), int(end - first));
    }

    // Terms [first, first + staged_terms) that exist, loaded by the warp together: every lane's
    // loads in flight at once.
    __device__ void stage(long long first) {
        const int lane = int(threadIdx.x);
        __syncwarp();  // every lane is done with the staged terms
#pragma unroll
        for (int k = 0; k < staged_terms / warp_lanes; ++k) {
            const long long i = first + k * warp_lanes + lane;
            if (i < count) staged[i - first] = term(i);
        }
        __syncwarp();
        staged_first = first;
    }

    // sum + terms[0] + ... + terms[n - 1], one addition after another. The loads of a batch are
    // issued before the additions of the batch before it, so only the additions wait on each
    // other.
    __device__ static Real add_in_order(Real sum, const Real* terms, int n) {
        constexpr int batch = 16;
        Real current[batch], next[batch];
        int i = 0;
        if (n >= batch) {
#pragma unroll
            for (int k = 0; k < batch; ++k) current[k] = terms[k];
            for (; i + batch <= n; i += batch) {
                const bool more = i + 2 * batch <= n;
                if (more) {
#pragma unroll
                    for (int k = 0; k < batch; ++k) next[k] = terms[i + batch + k];
                }
#pragma unroll
                for (int k = 0; k < batch; ++k) sum += current[k];
                if (more) {
#pragma unroll
                    for (int k = 0; k < batch; ++k) current[k] = next[k];
                }
            }
        }
        for (; i < n; ++i) sum += terms[i];
        return sum;
    }
};

}  // namespace vq::ordered
