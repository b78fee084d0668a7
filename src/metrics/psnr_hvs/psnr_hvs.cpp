// The psnr_hvs feature's definition and the scoring both twins share.
#include "metrics/psnr_hvs/psnr_hvs.hpp"

#include <cmath>

#include <fmt/format.h>

#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::psnr_hvs {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);  // psnr_hvs_cuda.cu

FeatureDefinition definition() {
    // The reference has no options and ignores any key; vq rejects unknown keys as everywhere.
    return {.name = "psnr_hvs",
            .description =
                "PSNR-HVS: DCT-domain PSNR with contrast sensitivity and masking per "
                "plane: psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and the weighted psnr_hvs "
                "(dB)",
            .options = {},
            .make_cpu = make_cpu,
            .make_cuda = VQ_CUDA_TWIN(make_cuda)};
}

int scored_width(const VideoFormat& format, int plane) {
    if (plane == 0 || format.chroma == ChromaFormat::yuv444) return format.width;
    return format.width / 2;
}

int scored_height(const VideoFormat& format, int plane) {
    if (plane == 0 || format.chroma != ChromaFormat::yuv420) return format.height;
    return format.height / 2;
}

void Scorer::init(const VideoFormat& format) {
    // §10. The reference fails 4:0:0 too: the total needs both chroma planes.
    if (format.chroma == ChromaFormat::yuv400)
        throw usage_error(
            "psnr_hvs: 4:0:0 video has no chroma planes; psnr_hvs needs Y, Cb and Cr");
    if (format.bit_depth > max_bit_depth)
        throw usage_error(fmt::format("psnr_hvs: bit depth {} is not supported (at most {})",
                                      format.bit_depth, max_bit_depth));
    static const char* const plane_names[3] = {"Y", "Cb", "Cr"};
    for (int p = 0; p < 3; ++p) {
        const int width = scored_width(format, p), height = scored_height(format, p);
        // The reference gives NaN for a plane without a whole block; vq refuses it instead.
        if (width < block_size || height < block_size)
            throw usage_error(fmt::format(
                "psnr_hvs: the {} plane of {} is {}x{}; every plane needs at least {}x{} samples",
                plane_names[p], describe(format), width, height, block_size, block_size));
        const std::int64_t blocks = std::int64_t(block_count(width)) * block_count(height);
        coefficient_count_[p] = float(64 * blocks);
    }
    const std::int64_t peak = (std::int64_t(1) << format.bit_depth) - 1;
    normaliser_ = float(peak * peak);
}

std::vector<std::string> Scorer::outputs() const {
    return {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
}

// §8's normalisation in float, §9's conversion in double (glibc's log10, as the reference's).
// Identical planes give +inf, which the writers print as the reference does.
void Scorer::finish(const Block& block, std::span<double> scores) {
    std::array<double, 3> plane_score;
    for (int p = 0; p < 3; ++p) {
        plane_score[p] = double(block.error_sum[p] / coefficient_count_[p] / normaliser_);
        scores[p] = 10.0 * -std::log10(plane_score[p]);
    }
    const double total = plane_score[0] * 0.8 + 0.1 * (plane_score[1] + plane_score[2]);
    scores[3] = 10.0 * -std::log10(total);
}

}  // namespace vq::psnr_hvs
