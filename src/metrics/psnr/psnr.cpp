// PSNR options, constants and the host-side scoring shared by both twins.
#include "metrics/psnr/psnr.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::psnr {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

FeatureDefinition definition() {
    return {
        .name = "psnr",
        .description = "peak signal-to-noise ratio per plane: psnr_y, psnr_cb, psnr_cr (dB)",
        .options =
            {
                boolean_option("enable_chroma", true, "", "also score Cb and Cr"),
                boolean_option("enable_mse", false, "", "also emit mse_y, mse_cb, mse_cr"),
                boolean_option("enable_apsnr", false, "",
                               "emit apsnr_y/cb/cr over the whole run (from summed SSE)"),
                boolean_option("reduced_hbd_peak", false, "",
                               "above 8 bits use the peak 255*2^(bpc-8) instead of 2^bpc-1"),
                real_option("min_sse", 0.0, 0, 1e300, "",
                            "cap PSNR at the value a frame with this SSE would get (0: cap "
                            "6*bpc+12)"),
            },
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Options Options::from(const OptionValues& values) {
    return {values.get_bool("enable_chroma"), values.get_bool("enable_mse"),
            values.get_bool("enable_apsnr"), values.get_bool("reduced_hbd_peak"),
            values.get_double("min_sse")};
}

void Scorer::init(const VideoFormat& format) {
    const int bpc = format.bit_depth;
    planes_ = options_.enable_chroma ? format.plane_count() : 1;
    peak_ = bpc == 8 || !options_.reduced_hbd_peak ? (1u << bpc) - 1 : 255u << (bpc - 8);
    for (int p = 0; p < format.plane_count(); ++p) {
        // Plane sizes are the stored (ceil) chroma sizes; upstream libvmaf uses floor halving here,
        // which only differs for odd dimensions, where its reader cannot read the file at all.
        samples_[p] = std::uint64_t(format.plane_width(p)) * std::uint64_t(format.plane_height(p));
        cap_[p] = options_.min_sse > 0
                      ? std::ceil(10.0 * std::log10(double(std::uint64_t(peak_) * peak_) /
                                                    (options_.min_sse / double(samples_[p]))))
                      : double(6 * bpc + 12);
    }
}

std::vector<std::string> Scorer::outputs() const {
    static const char* const suffix[3] = {"y", "cb", "cr"};
    std::vector<std::string> names;
    for (int p = 0; p < planes_; ++p) {
        names.push_back(fmt::format("psnr_{}", suffix[p]));
        if (options_.enable_mse) names.push_back(fmt::format("mse_{}", suffix[p]));
    }
    return names;
}

void Scorer::finish(const Block& block, std::span<double> scores) {
    const double peak_squared = double(std::uint64_t(peak_) * peak_);
    std::size_t out = 0;
    for (int p = 0; p < planes_; ++p) {
        const double mse = double(block.sse[p]) / double(samples_[p]);
        const double psnr = 10.0 * std::log10(peak_squared / (mse > 1e-16 ? mse : 1e-16));
        scores[out++] = psnr < cap_[p] ? psnr : cap_[p];
        if (options_.enable_mse) scores[out++] = mse;
        total_sse_[p] += block.sse[p];
        total_samples_[p] += samples_[p];
    }
}

ChunkContext Scorer::chunk_context() const {
    if (options_.enable_apsnr)
        throw usage_error(
            "psnr=enable_apsnr sums the squared errors of the whole run; a run in chunks cannot "
            "give it (score without chunks, or pool psnr_y instead)");
    return {};
}

std::vector<std::pair<std::string, double>> Scorer::aggregates() const {
    if (!options_.enable_apsnr) return {};
    // Spec §5. Planes that were not scored get no apsnr value: the reference prints -inf for
    // them (0/0 through its cap comparison), which no reader can use.
    static const char* const names[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};
    const std::uint64_t peak_squared = std::uint64_t(peak_) * peak_;
    std::vector<std::pair<std::string, double>> result;
    for (int p = 0; p < planes_; ++p) {
        const double apsnr =
            10.0 * (std::log10(double(peak_squared)) + std::log10(double(total_samples_[p])) -
                    std::log10(double(total_sse_[p])));
        // The reference forms this product in 64 bits; 128 bits gives the same value wherever that
        // does not overflow (long 16-bit 4K runs would).
        const unsigned __int128 product = (unsigned __int128)peak_squared * total_samples_[p] * 2;
        const double cap = std::ceil(10.0 * std::log10(double(product)));
        result.emplace_back(names[p], apsnr < cap ? apsnr : cap);
    }
    return result;
}

}  // namespace vq::psnr
