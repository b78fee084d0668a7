// Helpers for the ADM tests: the spec's §15 frames, the CPU twin run directly, and blocks
// computed with a chosen kernel variant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cpu_pipeline.hpp"
#include "support/pictures.hpp"
#include "feature/options.hpp"
#include "vq/picture.hpp"

namespace vq::test {

using AdmOptions = std::vector<std::pair<std::string, std::string>>;

// A 4:2:0 picture whose luma sample (x, y) is luma(x, y); chroma stays zero (ADM ignores it).
inline Picture adm_picture(int width, int height, int bit_depth,
                           const std::function<int(int, int)>& luma) {
    return make_picture({width, height, bit_depth, ChromaFormat::yuv420},
                        [&](int p, int y, int x) { return p == 0 ? luma(x, y) : 0; });
}

// §15.1: R(x, y) = (x^2 + 2y^2 + 3xy + 5x + 7y) mod 251.
inline int example_r(int x, int y) { return (x * x + 2 * y * y + 3 * x * y + 5 * x + 7 * y) % 251; }

// §15.1 cases A (8-bit), B (10), E (12) and F (16): ref = R * 2^u + ((x + 2y) mod 2^u), and
// dis = a [1 2 1]/4 horizontal blur of ref plus ((13x + 29y + xy) mod M) - floor(M/2) with
// M = 8 * 2^u + 1, clamped to the sample range (u = bpc - 8; neighbours clamped to the frame).
inline std::pair<Picture, Picture> example_blurred(int width, int height, int bit_depth) {
    const int u = bit_depth - 8, modulus = 8 * (1 << u) + 1, peak = (1 << bit_depth) - 1;
    auto ref = [=](int x, int y) { return example_r(x, y) * (1 << u) + (x + 2 * y) % (1 << u); };
    auto dis = [=](int x, int y) {
        const int left = ref(std::max(x - 1, 0), y), right = ref(std::min(x + 1, width - 1), y);
        const int blurred = (left + 2 * ref(x, y) + right + 2) >> 2;
        const int noise = (13 * x + 29 * y + x * y) % modulus - modulus / 2;
        return std::clamp(blurred + noise, 0, peak);
    };
    return {adm_picture(width, height, bit_depth, ref), adm_picture(width, height, bit_depth, dis)};
}

// §15.1 case D: 64x64 8-bit, dis = R sharpened, clamp(R + ((2R(x) - R(x-1) - R(x+1)) >> 1)).
inline std::pair<Picture, Picture> example_sharpened() {
    auto dis = [](int x, int y) {
        const int left = example_r(std::max(x - 1, 0), y),
                  right = example_r(std::min(x + 1, 63), y);
        return std::clamp(example_r(x, y) + ((2 * example_r(x, y) - left - right) >> 1), 0, 255);
    };
    return {adm_picture(64, 64, 8, example_r), adm_picture(64, 64, 8, dis)};
}

inline std::int64_t luma_sum(const Picture& picture) {
    std::int64_t sum = 0;
    for (int y = 0; y < picture.format().height; ++y)
        for (int x = 0; x < picture.format().width; ++x) sum += sample_at(picture, 0, y, x);
    return sum;
}

// A Scorer bound to `options` and initialised for `format`.
inline adm::Scorer adm_scorer(const VideoFormat& format, const AdmOptions& options = {}) {
    const FeatureDefinition definition = adm::definition();
    adm::Scorer scorer(bind_options("adm", definition.options, options));
    scorer.init(format);
    return scorer;
}

inline adm::Block adm_block(const adm::Config& config, const adm::Kernels& kernels,
                            const Picture& ref, const Picture& dis) {
    adm::Workspace workspace;
    adm::Block block;
    adm::compute_block(config, kernels, ref, dis, workspace, block);
    return block;
}

// The seven outputs (adm2, aim, adm3, scale0..3) of one frame through the registered CPU twin.
inline std::vector<double> adm_scores(const Picture& ref, const Picture& dis,
                                      const AdmOptions& options = {}) {
    const FeatureDefinition definition = adm::definition();
    auto feature = definition.make_cpu(bind_options("adm", definition.options, options));
    feature->init(ref.format());
    std::vector<std::byte> block(feature->block_bytes());
    feature->compute(FramePair{ref, dis}, block);
    std::vector<double> scores(feature->outputs().size());
    feature->finish(block, scores);
    return scores;
}

}  // namespace vq::test
