// The one picture generator of the tests and the benches: every content a metric's twins must
// agree on, at any size (odd ones included), bit depth (8..16) and layout (4:2:0, 4:2:2, 4:4:4,
// 4:0:0). A picture is a function of its format, content and seed alone, so a failure reproduces.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "vq/picture.hpp"

namespace vq::test {

enum class Content {
    zeros,      // every sample 0, and
    maxima,     // every sample 2^depth - 1: the extremes, which catch overflow
    flat,       // every sample one code drawn from the seed
    noise,      // uniform over the whole range, independently per sample
    ramp,       // (7 row + 13 column + 31 plane) mod 2^depth: catches the indexing mistakes that
                // noise averages away
    texture,    // natural-looking: smooth value noise in octaves (a photograph's falling
                // spectrum) with a little grain
    banded,     // a slow diagonal ramp in flat bands two 8-bit codes apart, a few stray samples:
                // the banding CAMBI exists for
    grainy,     // the same ramp with grain on one sample in 8: short runs, a sparse flat mask
    patchwork,  // 4..19-sample flat blocks of unrelated codes: many distinct flat values
    staircase,  // one code per 3 columns: every code of the range appears somewhere
    extremes,   // the largest code with blocks of zero: both extremes and hard edges
};

const char* to_string(Content content);

// `content` in every plane of `format` (chroma with the plane's own size), reproducibly from
// `seed`. The generators draw luma first, so a luma-only metric sees the same samples whatever
// the layout.
Picture make_picture(const VideoFormat& format, Content content, std::uint32_t seed = 0);

// The picture whose sample (plane, row, column) is code(plane, row, column), called in that
// order (planes, then rows, then columns), so a code drawn from a random engine is reproducible.
Picture make_picture(const VideoFormat& format, const std::function<int(int, int, int)>& code);

// A 4:2:0 picture whose luma sample (x, y) is luma(x, y), with flat mid-grey chroma: for the
// luma-only metrics.
template <typename Luma>
Picture luma_picture(int width, int height, int bit_depth, Luma luma) {
    return make_picture(
        {width, height, bit_depth, ChromaFormat::yuv420},
        [&](int plane, int y, int x) { return plane == 0 ? luma(x, y) : 1 << (bit_depth - 1); });
}

// Sample (plane, row, column) of a picture of any depth.
int sample_at(const Picture& picture, int plane, int row, int column);

// A distorted copy: each sample moved by a uniform draw from [-spread, spread], clamped to the
// depth's range.
Picture perturbed(const Picture& picture, int spread, std::uint32_t seed);

// `count` frame pairs that cover the twins' hard cases in turn: noise against noise, identical
// pictures, the extremes against each other (maxima, zeros), a ramp against noise.
std::vector<FramePair> adversarial_frames(const VideoFormat& format, int count, std::uint32_t seed);

}  // namespace vq::test
