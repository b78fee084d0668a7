// SpEED's device pipeline (spec/speed.md §3-§9). Each kernel follows the CPU twin's order of
// operations. The serial sums of §8.1-§8.2 (25 float means, then 325 double covariance entries per
// image, each over the w_m x h_m sub-image in row-major order) round in an order-dependent way, so
// each is the toolkit's ordered sum (metrics/toolkit/ordered_sum.hpp): its chunks summarised in
// parallel and walked in order, the CPU twin's bits; speed_sum_terms.hpp reads their terms as the
// CPU twin forms them. The 25x25 stages share their maths with the CPU twin (speed_eigen.hpp,
// speed_block_math.hpp); the device's log2 is the correctly rounded one (speed_log2.hpp).
#include "metrics/speed/speed_cuda_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "cuda/check.hpp"
#include "metrics/speed/speed_block_math.hpp"
#include "metrics/speed/speed_eigen.hpp"
#include "metrics/speed/speed_log2.hpp"
#include "metrics/speed/speed_prescale.hpp"
#include "metrics/speed/speed_stages.hpp"
#include "metrics/speed/speed_sum_terms.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/ordered_sum_warp.cuh"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::speed {
namespace {

constexpr int n = block_samples;
constexpr int threads = 128;

struct RoundedLog2 {
    __device__ double operator()(double x) const { return log2_rounded(x); }
};

// Spec §3 (and §11), image by image: v / 2^(bpc-8) - 128 as the CPU twin computes it, or the
// difference of two such planes.
template <typename Sample>
struct RawPlanes {
    ImageSources sources;
    int width;
    float inverse;
    __device__ float centred(const std::byte* plane, long i) const {
        return float(reinterpret_cast<const Sample*>(plane)[i]) * inverse + -128.0f;
    }
    __device__ float operator()(int image, int y, int x) const {
        const ImageSource& s = sources.image[image];
        const long i = long(y) * width + x;
        return s.b ? centred(s.a, i) - centred(s.b, i) : centred(s.a, i);
    }
};

// Spec §5: the prescaled plane, sampled through the axis tables from the converted plane.
template <PrescaleMethod method>
struct PrescaledPlanes {
    const float* sources;  // the converted planes, one after the other
    int width, height;     // of a converted plane
    const int *x_index, *y_index;
    const float *x_weight, *y_weight;
    int x_taps, y_taps;
    __device__ float operator()(int image, int y, int x) const {
        const float* source = sources + long(image) * width * height;
        return prescaled_sample<method>(source, width, x_index + x * x_taps, x_weight + x * x_taps,
                                        y_index + y * y_taps, y_weight + y * y_taps);
    }
};

// Spec §3 into float planes (only when the prescale reads arbitrary samples of them).
template <typename Sample>
__global__ void convert(ImageSources sources, int width, int samples, int bit_depth,
                        float* planes) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= samples) return;
    const RawPlanes<Sample> planes_in{sources, width, 1.0f / float(1 << (bit_depth - 8))};
    planes[long(blockIdx.y) * samples + i] = planes_in(int(blockIdx.y), i / width, i % width);
}

// Spec §7: the anti-alias blur at every 16th row and column. As the CPU twin: the vertical pass
// (taps ascending from 0) at the columns the horizontal pass reads, then the horizontal pass.
template <typename Planes>
__global__ void decimate(Planes planes, int width, int height, const float* taps, int tap_count,
                         int wo, int ho, float* q) {
    const int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= wo * ho) return;
    const int i = o / wo, j = o % wo, k = (tap_count - 1) / 2, image = int(blockIdx.y);
    float sum = 0.0f;
    for (int t = 0; t < tap_count; ++t) {
        const int x = mirror(decimation * j - k + t, width);
        float column = 0.0f;
        for (int u = 0; u < tap_count; ++u)
            column = column + taps[u] * planes(image, mirror(decimation * i - k + u, height), x);
        sum = sum + taps[t] * column;
    }
    q[long(blockIdx.y) * wo * ho + o] = sum;
}

// Spec §7: r = q - local mean, the mean a separable filter (vertical pass, then horizontal).
__global__ void remove_local_mean(const float* q, int wo, int ho, const float* taps, int tap_count,
                                  float* r) {
    const int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= wo * ho) return;
    const float* image = q + long(blockIdx.y) * wo * ho;
    const int y = o / wo, x = o % wo, k = (tap_count - 1) / 2;
    float mean = 0.0f;
    for (int t = 0; t < tap_count; ++t) {
        const int column = mirror(x - k + t, wo);
        float vertical = 0.0f;
        for (int u = 0; u < tap_count; ++u)
            vertical = vertical + taps[u] * image[mirror(y - k + u, ho) * wo + column];
        mean = mean + taps[t] * vertical;
    }
    r[long(blockIdx.y) * wo * ho + o] = image[o] - mean;
}

// Spec §8.1-§8.2's serial sums, each an ordered sum (metrics/toolkit/ordered_sum.hpp) of the
// w_m x h_m terms in the CPU twin's order: `Sums` names an accumulator's terms (term(k)) and where
// its result goes (store(k, sum)); accumulator k is image k / per_image's sum k % per_image.

// Spec §8.1: the 25 float sums of every image; each mean is its sum over w_m h_m, in float.
struct MeanSums {
    static constexpr int per_image = n;
    const float* residual;
    int wo, ho, wm, hm;
    float* means;

    __device__ SubImageTerm term(int k) const {
        return sub_image_term(residual + long(k / n) * wo * ho, wo, wm, k % n);
    }
    __device__ void store(int k, float sum) const { means[k] = sum / float(wm * hm); }
};

// Spec §8.2: the 325 double sums b <= a of every image (after MeanSums: the terms need the means);
// each entry is its sum over w_m h_m in double, rounded to float, at (a, b) and (b, a).
struct CovarianceSums {
    static constexpr int per_image = covariance_entries;
    const float* residual;
    int wo, ho, wm, hm;
    const float* means;
    float* k;

    __device__ CovarianceTerm term(int accumulator) const {
        const int image = accumulator / per_image;
        int a, b;
        covariance_entry(accumulator % per_image, a, b);
        return covariance_term(residual + long(image) * wo * ho, wo, wm, a, b, means + image * n);
    }
    __device__ void store(int accumulator, double sum) const {
        const int image = accumulator / per_image;
        int a, b;
        covariance_entry(accumulator % per_image, a, b);
        const float value = float(sum / double(wm * hm));
        k[image * n * n + a * n + b] = value;
        k[image * n * n + b * n + a] = value;
    }
};

template <typename Sums>
using SumOf = ordered::term_type<decltype(std::declval<const Sums&>().term(0))>;

// The ordered sums' levels, per accumulator: [accumulators][level_size(level, count)] each.
struct SumScratch {
    double* prefix;  // the approximate running sum before each chunk
    ordered::Grid* chunks;
    ordered::Grid* groups;
    ordered::Grid* supers;
    long long count;  // terms per sum: w_m h_m
};

// One block per accumulator: each chunk's sum in double, in any order (a warp a chunk, its lanes
// reading consecutive terms), then the running sums before each chunk from those (approximate: they
// only pick the binade each chunk is summarised on).
constexpr int prefix_threads = 256;  // a few chunks each: SpEED's sums have tens to hundreds

template <typename Sums>
__global__ void __launch_bounds__(prefix_threads) sum_prefixes(Sums sums, SumScratch scratch) {
    constexpr int lanes = ordered::warp_lanes, warps = prefix_threads / lanes;
    const int accumulator = int(blockIdx.x);
    const long long count = scratch.count, chunks = ordered::level_size(0, count);
    double* prefix = scratch.prefix + accumulator * chunks;
    const auto term = sums.term(accumulator);
    const int lane = int(threadIdx.x) % lanes;
    for (long long c = threadIdx.x / lanes; c < chunks; c += warps) {
        const long long end = min(count, (c + 1) * ordered::chunk_terms);
        double own = 0;
        for (long long i = c * ordered::chunk_terms + lane; i < end; i += lanes)
            own += double(term(i));
        for (int offset = lanes / 2; offset > 0; offset /= 2)
            own += __shfl_down_sync(0xffffffffu, own, offset);
        if (lane == 0) prefix[c] = own;
    }
    __syncthreads();  // the chunk sums of every warp are written
    ordered::running_sums<prefix_threads>(prefix, prefix, chunks, false);
}

// Each chunk's Grid (blockIdx.x the chunk, blockIdx.y the accumulator) on the binade of the
// approximate running sum before it.
template <typename Sums>
__global__ void chunk_grids(Sums sums, SumScratch scratch) {
    const int accumulator = int(blockIdx.y);
    const long long chunks = ordered::level_size(0, scratch.count), chunk = blockIdx.x;
    const long long at = accumulator * chunks + chunk;
    const int e = ordered::binade_of(SumOf<Sums>(scratch.prefix[at]));
    const ordered::Grid g = ordered::chunk_grid(sums.term(accumulator), chunk, scratch.count, e);
    if (threadIdx.x == 0) scratch.chunks[at] = g;
}

// One level up (blockIdx.x the Grid, blockIdx.y the accumulator): chunks to groups (level 1),
// groups to super-groups (level 2).
__global__ void level_grids(SumScratch scratch, int level) {
    const long long below_count = ordered::level_size(level - 1, scratch.count);
    const long long above_count = ordered::level_size(level, scratch.count);
    const long long index = blockIdx.x, accumulator = blockIdx.y;
    const ordered::Grid* below = (level == 2 ? scratch.groups : scratch.chunks);
    ordered::Grid* above = level == 2 ? scratch.supers : scratch.groups;
    const ordered::Grid g =
        ordered::level_grid(below + accumulator * below_count, below_count, index);
    if (threadIdx.x == 0) above[accumulator * above_count + index] = g;
}

// One warp per accumulator walks its levels in order, adding serially where a check fails.
template <typename Sums>
__global__ void walk_sums(Sums sums, SumScratch scratch) {
    using Real = SumOf<Sums>;
    __shared__ ordered::Grid windows[3][ordered::fan_out];
    __shared__ Real staged[ordered::staged_terms];
    const int accumulator = int(blockIdx.x);
    const long long count = scratch.count;
    ordered::WarpWalk<decltype(sums.term(0))> context{
        {scratch.chunks + accumulator * ordered::level_size(0, count),
         scratch.groups + accumulator * ordered::level_size(1, count),
         scratch.supers + accumulator * ordered::level_size(2, count)},
        sums.term(accumulator),
        count,
        windows,
        staged};
    const Real sum = ordered::walk(context, count);
    if (threadIdx.x == 0) sums.store(accumulator, sum);
}

// Every accumulator of `sums` for `images` images, on `stream`.
template <typename Sums>
void ordered_sums(const Sums& sums, int images, const SumScratch& scratch, cudaStream_t stream) {
    const unsigned accumulators = unsigned(images * Sums::per_image);
    constexpr int warp = ordered::warp_lanes;
    const auto grids = [&](int level) {
        return dim3(unsigned(ordered::level_size(level, scratch.count)), accumulators);
    };
    sum_prefixes<<<accumulators, prefix_threads, 0, stream>>>(sums, scratch);
    VQ_CUDA_CHECK_LAUNCH(sum_prefixes);
    chunk_grids<<<grids(0), warp, 0, stream>>>(sums, scratch);
    VQ_CUDA_CHECK_LAUNCH(chunk_grids);
    for (int level = 1; level <= 2; ++level) {
        level_grids<<<grids(level), warp, 0, stream>>>(scratch, level);
        VQ_CUDA_CHECK_LAUNCH(level_grids);
    }
    walk_sums<<<accumulators, warp, 0, stream>>>(sums, scratch);
    VQ_CUDA_CHECK_LAUNCH(walk_sums);
}

// Spec §8.6's product in the CPU twin's order: k ascending, terms with a zero left factor skipped.
__device__ float product_entry(const float* p, const float* q, int i, int j) {
    float o = 0.0f;
    for (int k = 0; k < n; ++k) {
        const float pik = p[i * n + k];
        if (pik == 0.0f) continue;
        o = o + pik * q[k * n + j];
    }
    return o;
}

// A thread block as speed_eigen.hpp's team.
struct BlockTeam {
    __device__ int rank() const { return int(threadIdx.x); }
    __device__ int size() const { return int(blockDim.x); }
    __device__ void sync() const { __syncthreads(); }
};

__device__ float norm(const float* v) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum = sum + v[i] * v[i];
    return float(sqrt(double(sum)));
}

constexpr int factorise_threads = 640;  // one per matrix entry, rounded up to whole warps

// Per image (blockIdx.x): blockIdx.y 0 finds the eigenvalues (§8.3; the QR sweeps on one thread,
// they are serial); blockIdx.y 1 forms the Householder QR of K (§8.6) with one thread per entry:
// H (the product of the reflectors) and R = H K, and whether a pivot of R is below 1e-6.
__global__ void __launch_bounds__(factorise_threads)
    factorise(const float* covariances, float* eigenvalues, float* householder, float* triangular,
              int* solve_failed) {
    const float* k = covariances + blockIdx.x * n * n;
    __shared__ float z[n * n], h[n * n], reflector[n * n], v[n], x[n], d[n], off_diagonal[n];
    __shared__ float length;
    const int e = threadIdx.x, i = e / n, j = e % n;
    const bool entry = e < n * n;
    if (blockIdx.y == 0) {
        // The tridiagonalisation's rows and entries spread over the block; the sweeps are serial.
        if (entry) z[e] = k[e];
        __syncthreads();
        eigen::tridiagonalise(z, d, off_diagonal, v, x, BlockTeam{});
        if (e == 0) {
            eigen::qr_iterations(d, off_diagonal);
            for (int p = 0; p < n; ++p) eigenvalues[blockIdx.x * n + p] = d[p];
        }
        return;
    }
    if (entry) {
        z[e] = k[e];
        h[e] = i == j ? 1.0f : 0.0f;
    }
    __syncthreads();
    for (int step = 0; step + 1 < n; ++step) {
        if (entry && (i < step || j < step)) z[e] = i == j ? 1.0f : 0.0f;
        __syncthreads();
        if (e < n) v[e] = z[e * n + step];
        __syncthreads();
        if (e == 0) {
            // The sign of the original K[k][k], not the working matrix's (the reference's quirk).
            const float sign = k[step * n + step] >= 0.0f ? 1.0f : -1.0f;
            v[step] = v[step] + sign * norm(v);
            length = norm(v);
        }
        __syncthreads();
        if (e < n) v[e] = v[e] / length;
        __syncthreads();
        if (entry) {
            const float w = (-2.0f * v[i]) * v[j];
            reflector[e] = i == j ? w + 1.0f : w;
        }
        __syncthreads();
        float next_z = 0.0f, next_h = 0.0f;
        if (entry) {
            next_z = product_entry(reflector, z, i, j);
            next_h = product_entry(reflector, h, i, j);
        }
        __syncthreads();
        if (entry) {
            z[e] = next_z;
            h[e] = next_h;
        }
        __syncthreads();
    }
    if (entry) {
        householder[blockIdx.x * n * n + e] = h[e];
        const float r = product_entry(h, k, i, j);
        triangular[blockIdx.x * n * n + e] = r;
        if (i == j && double(fabsf(r)) < 1e-6) atomicExch(solve_failed + blockIdx.x, 1);
    }
}

// Spec §8.4-§8.8 per block (one thread each): Y's column, H Y, back substitution, S_b and E_b.
__global__ void block_statistics(const float* r, int wo, int ho, int across, int count,
                                 const float* eigenvalues, const float* householder,
                                 const float* triangular, const int* solve_failed, float sigma_nn,
                                 int* failed, float* entropy, float* variance) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= count) return;
    const int image = blockIdx.y;
    const float* lambda = eigenvalues + image * n;
    bool regular = true;  // §8.4: every eigenvalue at least 1e-6
    for (int p = 0; p < n; ++p) regular = regular && !(double(lambda[p]) < 1e-6);
    const bool singular = !regular || solve_failed[image] != 0;
    if (b == 0) failed[image] = singular;
    const float* z =
        r + long(image) * wo * ho + (block_side * (b / across)) * wo + block_side * (b % across);
    float y[n], x[n];
    for (int p = 0; p < n; ++p) {
        y[p] = z[(p / block_side) * wo + p % block_side];
        x[p] = 0.0f;
    }
    if (!singular) {
        const float* hh = householder + image * n * n;
        const float* rr = triangular + image * n * n;
        float hy[n];
        for (int i = 0; i < n; ++i) {
            float o = 0.0f;
            for (int k = 0; k < n; ++k) {
                const float hik = hh[i * n + k];
                if (hik == 0.0f) continue;
                o = o + hik * y[k];
            }
            hy[i] = o;
        }
        for (int i = n - 1; i >= 0; --i) {
            float t = hy[i];
            for (int c = i + 1; c < n; ++c) t = t - x[c] * rr[i * n + c];
            x[i] = t / rr[i * n + i];
        }
    }
    const float s = block_variance(x, y, 1);
    variance[image * count + b] = s;
    entropy[image * count + b] = block_entropy(lambda, s, sigma_nn, RoundedLog2{});
}

// sum + term(0) + term(1) + ... + term(count - 1), added one by one in that order (the serial
// sum's roundings). The terms of a batch do not depend on the running sum, so their loads and
// arithmetic are issued together and only the additions wait on each other: a thread's chain
// costs an addition's latency per term instead of a load's, conversion's and multiplication's.
template <typename Sum, typename Term>
__device__ Sum add_in_order(Sum sum, int count, const Term& term) {
    constexpr int batch = 16;
    int i = 0;
    for (; i + batch <= count; i += batch) {
        Sum terms[batch];
#pragma unroll
        for (int k = 0; k < batch; ++k) terms[k] = term(i + k);
#pragma unroll
        for (int k = 0; k < batch; ++k) sum = sum + terms[k];
    }
    for (; i < count; ++i) sum = sum + term(i);
    return sum;
}

constexpr int score_threads = 256;
constexpr int max_shared_terms_bytes = 48 * 1024;

// Spec §9: the blocks' terms in parallel, then one serial float sum per channel (thread c). The
// terms wait in shared memory when `shared` (the serial sum then reads at shared-memory latency),
// else in `terms`.
__global__ void __launch_bounds__(score_threads)
    channel_scores(int channels, int count, const int* failed, const float* entropy,
                   const float* variance, int weight_mode, float base, bool shared,
                   float* global_terms, DeviceChannel* results) {
    extern __shared__ float shared_terms[];
    float* terms = shared ? shared_terms : global_terms;
    for (int c = 0; c < channels; ++c)
        for (int b = threadIdx.x; b < count; b += score_threads) {
            const int ref = 2 * c * count + b, dist = (2 * c + 1) * count + b;
            terms[c * count + b] = block_term(entropy[ref], entropy[dist], variance[ref],
                                              variance[dist], weight_mode, base, RoundedLog2{});
        }
    __syncthreads();
    const int c = threadIdx.x;
    if (c >= channels) return;
    const bool ref_failed = failed[2 * c] != 0, dist_failed = failed[2 * c + 1] != 0;
    if (ref_failed != dist_failed) {
        results[c] = {0.0f, 1};
        return;
    }
    const float* channel_terms = terms + c * count;
    const float acc =
        add_in_order(0.0f, count, [channel_terms](int b) { return channel_terms[b]; });
    results[c] = {acc / float(count), ref_failed || dist_failed};
}

unsigned blocks_for(long items, int per_block) {
    return unsigned((items + per_block - 1) / per_block);
}

template <typename T>
cuda::DeviceArray<T> uploaded(const std::vector<T>& host) {
    return cuda::to_device(std::span<const T>(host));
}

}  // namespace

DevicePipeline::DevicePipeline(const Config& config, int bit_depth, int channels)
    : config_(config), bit_depth_(bit_depth), channels_(channels), images_(2 * channels) {
    residual_width_ = config.scaled_width / decimation;
    residual_height_ = config.scaled_height / decimation;
    blocks_across_ = residual_width_ / block_side;
    blocks_down_ = residual_height_ / block_side;
    anti_alias_taps_ = uploaded(config.anti_alias_taps);
    local_mean_taps_ = uploaded(config.local_mean_taps);
    const std::size_t images = std::size_t(images_);
    if (config.options.rescales()) {
        const PrescaleMethod method = config.options.method;
        const PrescaleAxis x = prescale_axis(method, config.plane_width, config.scaled_width);
        const PrescaleAxis y = prescale_axis(method, config.plane_height, config.scaled_height);
        x_taps_ = x.taps, y_taps_ = y.taps;
        x_index_ = uploaded(x.index), x_weight_ = uploaded(x.weight);
        y_index_ = uploaded(y.index), y_weight_ = uploaded(y.weight);
        source_ = cuda::DeviceArray<float>(images * std::size_t(config.plane_width) *
                                           std::size_t(config.plane_height));
    }
    // Spec §4's block grid: w_m x h_m shifted sub-images of the whole blocks' area.
    sub_width_ = blocks_across_ * block_side - (block_side - 1);
    sub_height_ = blocks_down_ * block_side - (block_side - 1);
    terms_bytes_ = channels * blocks_across_ * blocks_down_ * 4;
    if (terms_bytes_ > max_shared_terms_bytes) terms_bytes_ = 0;  // the terms stay in global memory
    const std::size_t residual = std::size_t(residual_width_) * std::size_t(residual_height_);
    const std::size_t count = std::size_t(blocks_across_) * std::size_t(blocks_down_);
    decimated_ = cuda::DeviceArray<float>(images * residual);
    residual_ = cuda::DeviceArray<float>(images * residual);
    means_ = cuda::DeviceArray<float>(images * n);
    covariance_ = cuda::DeviceArray<float>(images * n * n);
    eigenvalues_ = cuda::DeviceArray<float>(images * n);
    householder_ = cuda::DeviceArray<float>(images * n * n);
    triangular_ = cuda::DeviceArray<float>(images * n * n);
    solve_failed_ = cuda::DeviceArray<int>(images);
    failed_ = cuda::DeviceArray<int>(images);
    entropy_ = cuda::DeviceArray<float>(images * count);
    variance_ = cuda::DeviceArray<float>(images * count);
    terms_ = cuda::DeviceArray<float>(std::size_t(channels) * count);
    // The ordered sums' levels, for the most accumulators (the covariance's); the means reuse them.
    const std::size_t accumulators = images * std::size_t(covariance_entries);
    const long long sum_terms = (long long)sub_width_ * sub_height_;
    const auto level = [&](int l) {
        return cuda::DeviceArray<ordered::Grid>(accumulators *
                                                std::size_t(ordered::level_size(l, sum_terms)));
    };
    sum_prefix_ =
        cuda::DeviceArray<double>(accumulators * std::size_t(ordered::level_size(0, sum_terms)));
    sum_chunks_ = level(0), sum_groups_ = level(1), sum_supers_ = level(2);
}

void DevicePipeline::enqueue(const ImageSources& sources, DeviceChannel* results,
                             cudaStream_t stream) {
    const int width = config_.plane_width, height = config_.plane_height;
    const int wo = residual_width_, ho = residual_height_;
    const dim3 residual_grid(blocks_for(long(wo) * ho, threads), unsigned(images_));
    const float* taps = anti_alias_taps_.data();
    const int tap_count = int(config_.anti_alias_taps.size());
    with_sample_type(bit_depth_, [&](auto sample) {
        using Sample = decltype(sample);
        const RawPlanes<Sample> raw{sources, width, 1.0f / float(1 << (bit_depth_ - 8))};
        if (!config_.options.rescales()) {
            decimate<<<residual_grid, threads, 0, stream>>>(raw, width, height, taps, tap_count, wo,
                                                            ho, decimated_.data());
            VQ_CUDA_CHECK_LAUNCH(decimate);
            return;
        }
        const int samples = width * height;
        convert<Sample><<<dim3(blocks_for(samples, 256), unsigned(images_)), 256, 0, stream>>>(
            sources, width, samples, bit_depth_, source_.data());
        VQ_CUDA_CHECK_LAUNCH(convert);
        const auto launch = [&](auto method) {
            const PrescaledPlanes<decltype(method)::value> planes{
                source_.data(),   width,           height,
                x_index_.data(),  y_index_.data(), x_weight_.data(),
                y_weight_.data(), x_taps_,         y_taps_};
            decimate<<<residual_grid, threads, 0, stream>>>(planes, config_.scaled_width,
                                                            config_.scaled_height, taps, tap_count,
                                                            wo, ho, decimated_.data());
            VQ_CUDA_CHECK_LAUNCH(decimate);
        };
        using M = PrescaleMethod;
        switch (config_.options.method) {
        case M::nearest: launch(std::integral_constant<M, M::nearest>{}); break;
        case M::bilinear: launch(std::integral_constant<M, M::bilinear>{}); break;
        case M::bicubic: launch(std::integral_constant<M, M::bicubic>{}); break;
        case M::lanczos4: launch(std::integral_constant<M, M::lanczos4>{}); break;
        }
    });
    remove_local_mean<<<residual_grid, threads, 0, stream>>>(
        decimated_.data(), wo, ho, local_mean_taps_.data(), int(config_.local_mean_taps.size()),
        residual_.data());
    VQ_CUDA_CHECK_LAUNCH(remove_local_mean);

    const int wm = sub_width_, hm = sub_height_;
    const SumScratch scratch{sum_prefix_.data(), sum_chunks_.data(), sum_groups_.data(),
                             sum_supers_.data(), (long long)wm * hm};
    ordered_sums(MeanSums{residual_.data(), wo, ho, wm, hm, means_.data()}, images_, scratch,
                 stream);
    ordered_sums(
        CovarianceSums{residual_.data(), wo, ho, wm, hm, means_.data(), covariance_.data()},
        images_, scratch, stream);
    const unsigned images = unsigned(images_);
    cuda::zero_async(solve_failed_.data(), solve_failed_.size(), stream);
    factorise<<<dim3(images, 2), factorise_threads, 0, stream>>>(
        covariance_.data(), eigenvalues_.data(), householder_.data(), triangular_.data(),
        solve_failed_.data());
    VQ_CUDA_CHECK_LAUNCH(factorise);
    const int count = blocks_across_ * blocks_down_;
    block_statistics<<<dim3(blocks_for(count, threads), images), threads, 0, stream>>>(
        residual_.data(), wo, ho, blocks_across_, count, eigenvalues_.data(), householder_.data(),
        triangular_.data(), solve_failed_.data(), config_.options.sigma_nn, failed_.data(),
        entropy_.data(), variance_.data());
    VQ_CUDA_CHECK_LAUNCH(block_statistics);
    channel_scores<<<1, score_threads, std::size_t(terms_bytes_), stream>>>(
        channels_, count, failed_.data(), entropy_.data(), variance_.data(),
        config_.options.weight_mode,
        base_entropy(config_.options.sigma_nn, config_.options.nn_floor), terms_bytes_ != 0,
        terms_.data(), results);
    VQ_CUDA_CHECK_LAUNCH(channel_scores);
}

}  // namespace vq::speed
