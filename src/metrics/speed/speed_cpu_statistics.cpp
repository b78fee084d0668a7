// SpEED's block statistics (spec/speed.md §8.1-§8.2, §8.4-§8.8), the channel score (§9) and the
// chain of one channel (§5-§9).
#include <cmath>

#include "metrics/speed/speed_block_math.hpp"
#include "metrics/speed/speed_eigen.hpp"
#include "metrics/speed/speed_stages.hpp"

namespace vq::speed {
namespace {

constexpr int n = block_samples;

// The reference's log2: glibc's.
struct GlibcLog2 {
    double operator()(double x) const { return std::log2(x); }
};

// Spec §4's block grid on a residual image.
struct Blocks {
    int across, down;   // nbh, nbv
    int width, height;  // w_m x h_m: size of the 25 shifted sub-images
    int count() const { return across * down; }
};

Blocks blocks_of(const FloatPlane& r) {
    const int wt = r.width / block_side * block_side, ht = r.height / block_side * block_side;
    return {wt / block_side, ht / block_side, wt - (block_side - 1), ht - (block_side - 1)};
}

bool regular(const std::array<float, n>& lambda) {
    for (float l : lambda)
        if (double(l) < 1e-6) return false;
    return true;
}

}  // namespace

Covariance covariance(const FloatPlane& r, const Kernels& kernels) {
    const Blocks g = blocks_of(r);
    Covariance out;
    const float samples = float(g.width * g.height);
    for (int p = 0; p < n; ++p) {
        const int py = p / block_side, px = p % block_side;
        float sum = 0.0f;
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) sum = sum + r.at(py + y, px + x);
        out.means[std::size_t(p)] = sum / samples;
    }
    // Each term is (double)z - (double)mean per position; the sums run over the samples in
    // row-major order (spec §8.2), one sequential double sum per entry.
    constexpr int stride = covariance_stride;
    const std::size_t count = std::size_t(g.width) * std::size_t(g.height);
    thread_local std::vector<double> diffs;  // reused by every frame this thread computes
    diffs.resize(count * stride);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            double* d =
                diffs.data() + (std::size_t(y) * std::size_t(g.width) + std::size_t(x)) * stride;
            for (int p = 0; p < n; ++p)
                d[p] = double(r.at(y + p / block_side, x + p % block_side)) -
                       double(out.means[std::size_t(p)]);
            for (int p = n; p < stride; ++p) d[p] = 0.0;
        }
    std::vector<double> sums(stride * stride, 0.0);
    kernels.covariance(diffs.data(), count, sums.data());
    const double divisor = double(g.width * g.height);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b <= a; ++b)
            out.k[std::size_t(a * n + b)] = out.k[std::size_t(b * n + a)] =
                float(sums[std::size_t(a * stride + b)] / divisor);
    return out;
}

std::array<float, block_samples> eigenvalues(const Matrix25& k, int* sweeps) {
    std::array<float, n> d;
    const int iterations = eigen::eigenvalues(k.data(), d.data());
    if (sweeps) *sweeps = iterations;
    return d;
}

ImageStatistics image_statistics(const FloatPlane& r, float sigma_nn, const Kernels& kernels) {
    const Blocks g = blocks_of(r);
    const int nb = g.count();
    const Covariance cov = covariance(r, kernels);
    const std::array<float, n> lambda = eigenvalues(cov.k);
    // Spec §8.5: column b holds block b's 25 samples in raster order.
    std::vector<float> y(std::size_t(n * nb));
    for (int p = 0; p < n; ++p)
        for (int b = 0; b < nb; ++b)
            y[std::size_t(p * nb + b)] = r.at(block_side * (b / g.across) + p / block_side,
                                              block_side * (b % g.across) + p % block_side);
    std::vector<float> x;
    ImageStatistics out;
    out.failed = !regular(lambda) || !solve(cov.k, y, nb, x, kernels);
    if (out.failed) x.assign(y.size(), 0.0f);
    out.variance.resize(std::size_t(nb));
    out.entropy.resize(std::size_t(nb));
    for (int b = 0; b < nb; ++b) {
        const float s = block_variance(x.data() + b, y.data() + b, nb);
        out.variance[std::size_t(b)] = s;
        out.entropy[std::size_t(b)] = block_entropy(lambda.data(), s, sigma_nn, GlibcLog2{});
    }
    return out;
}

ChannelScore channel_score(const ImageStatistics& ref, const ImageStatistics& dist,
                           const Options& options) {
    if (ref.failed != dist.failed) return {0.0f, true};
    const float base = base_entropy(options.sigma_nn, options.nn_floor);
    const std::size_t nb = ref.entropy.size();
    float acc = 0.0f;
    for (std::size_t b = 0; b < nb; ++b)
        acc = acc + block_term(ref.entropy[b], dist.entropy[b], ref.variance[b], dist.variance[b],
                               options.weight_mode, base, GlibcLog2{});
    return {acc / float(nb), ref.failed || dist.failed};
}

ChannelScore score_channel(const RowSource& ref, const RowSource& dist, const Config& config,
                           const Kernels& kernels) {
    const Options& options = config.options;
    const auto statistics = [&](const RowSource& plane) {
        if (!options.rescales())
            return image_statistics(residual(plane, config, kernels), options.sigma_nn, kernels);
        // The resamplers read arbitrary source rows: the source is converted whole first.
        const FloatPlane source = materialise(plane);
        return image_statistics(residual(prescaled_rows(source, config.scaled_width,
                                                        config.scaled_height, options.method),
                                         config, kernels),
                                options.sigma_nn, kernels);
    };
    return channel_score(statistics(ref), statistics(dist), options);
}

}  // namespace vq::speed
