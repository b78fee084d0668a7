// PSNR-HVS (spec/psnr_hvs.md): a DCT-domain PSNR with contrast-sensitivity weights and masking,
// per plane, plus a weighted total. Everything the twins share lives here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"

namespace vq::psnr_hvs {

FeatureDefinition definition();

// §4: 8x8 blocks on a grid of step 7; the remainder at the right and bottom is left out.
inline constexpr int block_size = 8;
inline constexpr int block_step = 7;
inline constexpr int block_count(int size) {
    return size < block_size ? 0 : (size - block_size) / block_step + 1;
}

// §3: the planes the reference scores have floor-size chroma, where vq's pictures hold ceil-size
// planes for odd sizes; the scored plane is their top-left part (the same samples the reference's
// raw input holds, INDEX.md).
int scored_width(const VideoFormat& format, int plane);
int scored_height(const VideoFormat& format, int plane);

template <typename Sample>
PlaneView<Sample> scored_plane(const Picture& picture, int plane) {
    PlaneView<Sample> view = picture.plane<Sample>(plane);
    view.width = scored_width(picture.format(), plane);
    view.height = scored_height(picture.format(), plane);
    return view;
}

inline constexpr int max_bit_depth = 12;  // §10: the reference refuses deeper pictures

// The per-frame result block: each plane's float accumulator acc of §8.
struct Block {
    std::array<float, 3> error_sum;
};

// Host side of the twins: checks the format (§10), turns the accumulators into dB (§8, §9).
class Scorer {
public:
    using Block = psnr_hvs::Block;

    explicit Scorer(const OptionValues&) {}

    void init(const VideoFormat& format);
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores);

private:
    std::array<float, 3> coefficient_count_{};  // f32(n) per plane
    float normaliser_ = 0;                      // f32((2^bpc - 1)²)
};

}  // namespace vq::psnr_hvs
